import type { FastifyInstance, FastifyRequest } from 'fastify'
import fs from 'node:fs'
import { ESTADOS_CERRADOS, TIPOS_DOCUMENTO, tipoDocumentoNombre, type TipoDocumento } from '../../domain/contract-rules'
import { isoDate, isoTimestamp } from '../../lib/catalogos'
import { parseContractCode } from '../../lib/codigos'
import type { ApiContext } from '../../lib/context'
import { ACCEPTED_LABEL, DocumentStore, FILE_KINDS, MAX_FILES, MAX_FILE_BYTES, contentDisposition, extensionOf, sanitizeFileName, type StoredTemp } from '../../lib/documents'
import { fail } from '../../lib/http'
import { drain, multipartFailure } from '../../lib/multipart'
import { callerScope, scopeConditions } from '../../lib/visibility'
import { positiveInt, visibleContract, type ContractRef } from '../business/shared'
import { contractPdfBuffer } from './print'
import { addHistory, contractFacts, estadoNombre } from './shared'

const MB = MAX_FILE_BYTES / (1024 * 1024)

/** The list shape of a document (`GET /api/contract/documentos`). */
export const DOCUMENT_SELECT = `
  SELECT d.id AS Id, d.nombre AS Nombre, d.tipo AS Tipo, d.tipo_mime AS TipoMime, d.tamano AS Tamano, d.sha256 AS Sha256, d.fecha AS Fecha,
    d.usuario_id AS UsuarioId, CASE WHEN u.id IS NULL THEN 'Sistema' ELSE trim(u.nombre || ' ' || u.apellidos) END AS Usuario,
    CASE WHEN d.ruta IS NULL THEN 1 ELSE 0 END AS Generado
  FROM contrato_documentos d LEFT JOIN usuarios u ON u.id = d.usuario_id`

export function documentItem(row: Record<string, unknown>) {
  return {
    Id: row.Id,
    Nombre: row.Nombre,
    Tipo: row.Tipo,
    TipoNombre: tipoDocumentoNombre(String(row.Tipo)),
    TipoMime: row.TipoMime,
    Tamano: row.Tamano,
    Sha256: row.Sha256,
    Fecha: row.Fecha,
    Usuario: row.Usuario,
    UsuarioId: row.UsuarioId,
    Generado: row.Generado === 1,
  }
}

function parseTipo(value: unknown): TipoDocumento {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : ''
  if (v === '') return 'otro'
  const tipo = TIPOS_DOCUMENTO.find((t) => t.Codigo === v)
  if (!tipo) fail(400, `Tipo: «${String(value).slice(0, 40)}» no es un tipo de documento (${TIPOS_DOCUMENTO.map((t) => t.Codigo).join(', ')}).`)
  return tipo.Codigo
}

interface Upload {
  name: string
  mime: string
  temp: StoredTemp
}

/** Documents of a contract: list, download, upload (spec §7). */
export async function documentRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts
  const store = new DocumentStore(opts.documentsDir)

  app.get('/api/contract/documentos', async (request) => {
    const code = parseContractCode((request.query as Record<string, unknown>).contrato, 'contrato')
    const contract = visibleContract(db, callerScope(db, request), code)
    return (db.prepare(`${DOCUMENT_SELECT} WHERE d.contrato_id = ? ORDER BY d.fecha DESC, d.id DESC`).all(contract.id) as Record<string, unknown>[]).map(documentItem)
  })

  app.get('/api/contract/documento', async (request, reply) => {
    const id = positiveInt((request.query as Record<string, unknown>).idDocumento, 'idDocumento')
    const { where, params } = scopeConditions(callerScope(db, request))
    const doc = db
      .prepare(`SELECT d.id, d.nombre, d.tipo_mime, d.ruta, d.tamano, c.id AS contrato_id FROM contrato_documentos d JOIN contratos c ON c.id = d.contrato_id WHERE d.id = ? AND ${where.join(' AND ')}`)
      .get(id, ...params) as { id: number; nombre: string; tipo_mime: string; ruta: string | null; tamano: number | null; contrato_id: number } | undefined
    if (!doc) fail(404, `No se ha encontrado el documento ${id}.`)
    reply.header('content-disposition', contentDisposition(doc.nombre)).header('x-content-type-options', 'nosniff').header('cache-control', 'no-store')
    if (doc.ruta === null) {
      // A seeded signed contract: no stored file, the contract as it was signed.
      const facts = contractFacts(db, doc.contrato_id)!
      const pdf = await contractPdfBuffer(opts, request.marca, facts, { signedCopy: true })
      return reply.type('application/pdf').header('content-length', pdf.length).send(pdf)
    }
    const file = store.absolute(doc.ruta)
    let size: number
    try {
      size = fs.statSync(file).size
    } catch {
      request.log.warn({ documento: doc.id, ruta: doc.ruta }, 'document file missing')
      fail(404, `El archivo del documento ${id} no está disponible.`)
    }
    return reply.type(doc.tipo_mime).header('content-length', size).send(fs.createReadStream(file))
  })

  app.post('/api/contract/insert-documents', async (request: FastifyRequest, reply) => {
    if (!request.isMultipart()) {
      fail(400, 'La petición debe ser multipart/form-data: el código de contrato en CodigoContrato, el tipo en Tipo y los archivos en Archivos.')
    }
    const scope = callerScope(db, request)
    const uploads: Upload[] = []
    let contract: ContractRef | null = null
    let tipo: TipoDocumento = 'otro'
    let problem: unknown = null
    const record = (err: unknown) => {
      problem ??= err
    }
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (problem) continue
          try {
            if (part.fieldname === 'CodigoContrato') contract = visibleContract(db, scope, parseContractCode(part.value, 'CodigoContrato'))
            else if (part.fieldname === 'Tipo') tipo = parseTipo(part.value)
          } catch (err) {
            record(err)
          }
          continue
        }
        if (problem) {
          await drain(part.file)
          continue
        }
        const shown = sanitizeFileName(part.filename ?? '')
        try {
          if (part.fieldname !== 'Archivos') fail(400, `Campo de archivo inesperado «${part.fieldname.slice(0, 40)}»: los archivos van en el campo Archivos.`)
          const kind = FILE_KINDS[extensionOf(shown)]
          if (!kind) fail(400, `El archivo «${shown}» no es de un tipo admitido (${ACCEPTED_LABEL}).`)
          const temp = await store.saveTemp(part.file)
          uploads.push({ name: shown, mime: kind.mime, temp })
          if (temp.truncated) fail(413, `El archivo «${shown}» supera el tamaño máximo de ${MB} MB.`)
          if (temp.size === 0) fail(400, `El archivo «${shown}» está vacío.`)
          if (!kind.sniff(temp.head)) fail(400, `El contenido del archivo «${shown}» no corresponde a un ${kind.label}.`)
        } catch (err) {
          record(err)
          if (!part.file.readableEnded) await drain(part.file)
        }
      }
    } catch (err) {
      record(multipartFailure(err, { maxFiles: MAX_FILES, maxBytes: MAX_FILE_BYTES }))
    }
    const temps = uploads.map((u) => u.temp.tempPath)
    if (problem) {
      store.discard(temps)
      throw problem
    }
    const committed: string[] = []
    try {
      if (!contract) fail(400, 'Falta el código de contrato (CodigoContrato).')
      if (uploads.length === 0) fail(400, 'No se ha enviado ningún archivo (campo Archivos).')
      const target: ContractRef = contract
      const stamp = isoTimestamp(now())
      const userId = request.caller!.userId
      const marcaId = request.marca.id
      const ids = db.transaction(() => {
        // The state now (the upload took time: another call may have changed it).
        const estado = (db.prepare('SELECT estado FROM contratos WHERE id = ?').get(target.id) as { estado: string }).estado
        if ((ESTADOS_CERRADOS as readonly string[]).includes(estado)) {
          fail(409, `El contrato ${target.codigo} está en estado «${estadoNombre(estado)}»: ya no admite documentos.`)
        }
        const inserted: number[] = []
        const insert = db.prepare(
          'INSERT INTO contrato_documentos (contrato_id, tipo, nombre, tipo_mime, tamano, sha256, ruta, fecha, usuario_id) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?)',
        )
        const setPath = db.prepare('UPDATE contrato_documentos SET ruta = ? WHERE id = ?')
        for (const u of uploads) {
          const id = insert.run(target.id, tipo, u.name, u.mime, u.temp.size, u.temp.sha256, stamp, userId).lastInsertRowid as number
          const relative = store.relativePath(marcaId, target.id, id)
          store.commit(u.temp.tempPath, relative)
          committed.push(store.absolute(relative))
          setPath.run(relative, id)
          inserted.push(id)
        }
        // A signed contract received while waiting for the signature: the contract is signed.
        if (tipo === 'contrato_firmado' && estado === 'pendiente_firma') {
          db.prepare("UPDATE contratos SET estado = 'firmado', fecha_firma = ?, actualizado_en = ?, actualizado_por = ? WHERE id = ?").run(isoDate(now()), stamp, userId, target.id)
          db.prepare("UPDATE contrato_firmas SET estado = 'firmada', firmada_en = ?, documento_id = ? WHERE contrato_id = ? AND estado = 'pendiente'").run(stamp, inserted[0], target.id)
          addHistory(db, {
            contratoId: target.id,
            fecha: stamp,
            usuarioId: userId,
            accion: 'firma',
            desde: 'pendiente_firma',
            hasta: 'firmado',
            detalle: `Firma registrada con el documento ${uploads[0]!.name}.`,
          })
        }
        return inserted
      })()
      committed.length = 0
      const rows = db.prepare(`${DOCUMENT_SELECT} WHERE d.id IN (${ids.map(() => '?').join(', ')}) ORDER BY d.id`).all(...ids) as Record<string, unknown>[]
      return reply.code(201).send(rows.map(documentItem))
    } catch (err) {
      // Nothing of a refused or failed upload stays on disk (the transaction rolled the rows back).
      store.discard([...temps, ...committed])
      throw err
    }
  })
}
