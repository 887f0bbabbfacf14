import type Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import { metaValue, setMeta } from '../db/database'

/**
 * Makes the seeded contracts consistent with the life-cycle tables of migration 004, once
 * per database (meta `lifecycle_backfill`), right after seeding:
 *
 * - every contract that was sent to the distributor was validated (Kleen) just before, by
 *   the user who sent it: `validado`, `validado_en/por` and a `validacion` history entry;
 * - every contract sent to sign has its signature request (`contrato_firmas`): signed,
 *   pending (still `pendiente_firma`) or cancelled;
 * - every signed contract has its signed-contract document (`contrato_documentos`) without a
 *   stored file: its download renders the contract PDF.
 *
 * A few set-based statements over the history: it adds well under a second to seeding.
 */
export const SIGNATURE_PROVIDER = 'Firma electrónica Portal'

/** The signature request id and link of a contract's n-th request (deterministic for seeded rows). */
export function signatureRequest(dominio: string, codigo: string, n: number, salt = ''): { solicitudId: string; enlace: string } {
  const digest = createHash('sha256').update(`${dominio}:${codigo}:${n}:${salt}`).digest()
  return {
    solicitudId: `FP-${digest.subarray(0, 6).toString('hex').toUpperCase()}`,
    enlace: `https://firma.${dominio}/s/${digest.subarray(6, 22).toString('base64url')}`,
  }
}

const instant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')

export function backfillLifecycle(db: Database.Database): boolean {
  if (metaValue(db, 'lifecycle_backfill')) return false
  db.transaction(() => {
    // ── validation just before the switching request (halfway from the previous event) ──
    const sent = db
      .prepare(
        `SELECT h.contrato_id AS id, h.fecha AS envio, h.usuario_id AS usuario,
           (SELECT p.fecha FROM contrato_historial p WHERE p.contrato_id = h.contrato_id AND (p.fecha < h.fecha OR (p.fecha = h.fecha AND p.id < h.id))
            ORDER BY p.fecha DESC, p.id DESC LIMIT 1) AS previo
         FROM contrato_historial h
         WHERE h.accion = 'envio_distribuidora'
           AND h.id = (SELECT MIN(x.id) FROM contrato_historial x WHERE x.contrato_id = h.contrato_id AND x.accion = 'envio_distribuidora')`,
      )
      .all() as { id: number; envio: string; usuario: number | null; previo: string | null }[]
    const validate = db.prepare('UPDATE contratos SET validado = 1, validado_en = ?, validado_por = ? WHERE id = ?')
    const history = db.prepare(
      "INSERT INTO contrato_historial (contrato_id, fecha, usuario_id, accion, estado_anterior, estado_nuevo, detalle) VALUES (?, ?, ?, 'validacion', NULL, NULL, ?)",
    )
    for (const s of sent) {
      const end = Date.parse(s.envio)
      const start = s.previo ? Date.parse(s.previo) : end - 3_600_000
      const at = instant(start + Math.floor((end - start) / 2000) * 1000)
      validate.run(at, s.usuario, s.id)
      history.run(s.id, at, s.usuario, 'Validación Kleen superada: datos y documentación del contrato correctos.')
    }

    // ── the signed contract on file ──
    db.exec(`
      INSERT INTO contrato_documentos (contrato_id, tipo, nombre, tipo_mime, tamano, sha256, ruta, fecha, usuario_id)
      SELECT c.id, 'contrato_firmado', 'contrato-firmado-' || c.codigo || '.pdf', 'application/pdf', NULL, NULL, NULL, h.fecha, NULL
      FROM contratos c JOIN contrato_historial h ON h.contrato_id = c.id AND h.accion = 'firma'
      WHERE h.id = (SELECT MIN(x.id) FROM contrato_historial x WHERE x.contrato_id = c.id AND x.accion = 'firma')
      ORDER BY h.fecha, c.id`)

    // ── signature requests ──
    const requests = db
      .prepare(
        `SELECT c.id, c.codigo, c.estado, m.dominio, h.fecha AS enviada, h.usuario_id AS usuario, cl.email, cl.telefono,
           (SELECT f.fecha FROM contrato_historial f WHERE f.contrato_id = c.id AND f.accion = 'firma' ORDER BY f.fecha LIMIT 1) AS firmada,
           (SELECT d.id FROM contrato_documentos d WHERE d.contrato_id = c.id AND d.tipo = 'contrato_firmado' ORDER BY d.id LIMIT 1) AS documento
         FROM contratos c JOIN marcas m ON m.id = c.marca_id JOIN clientes cl ON cl.id = c.cliente_id
         JOIN contrato_historial h ON h.contrato_id = c.id AND h.accion = 'envio_firma'
         WHERE h.id = (SELECT MIN(x.id) FROM contrato_historial x WHERE x.contrato_id = c.id AND x.accion = 'envio_firma')
         ORDER BY h.fecha, c.id`,
      )
      .all() as {
      id: number
      codigo: string
      estado: string
      dominio: string
      enviada: string
      usuario: number | null
      email: string | null
      telefono: string | null
      firmada: string | null
      documento: number | null
    }[]
    const insertRequest = db.prepare(
      `INSERT INTO contrato_firmas (contrato_id, proveedor, solicitud_id, enlace, destinatario, estado, enviada_en, enviada_por, firmada_en, documento_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    for (const r of requests) {
      const { solicitudId, enlace } = signatureRequest(r.dominio, r.codigo, 1)
      const estado = r.firmada ? 'firmada' : r.estado === 'pendiente_firma' ? 'pendiente' : 'cancelada'
      insertRequest.run(r.id, SIGNATURE_PROVIDER, solicitudId, enlace, r.email ?? (r.telefono ? `SMS ${r.telefono}` : null), estado, r.enviada, r.usuario, r.firmada, r.documento)
    }
    setMeta(db, 'lifecycle_backfill', new Date().toISOString())
  })()
  return true
}
