import type { FastifyInstance, FastifyRequest } from 'fastify'
import { calcularPenalizacion } from '../../domain/penalizacion'
import { precioMedioKwh } from '../../domain/precios'
import { PERIODOS } from '../../domain/contract-rules'
import { TIPOS_ALTA, isoDate, isoTimestamp } from '../../lib/catalogos'
import { parseContractCode } from '../../lib/codigos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { SIGNATURE_PROVIDER, signatureRequest } from '../../lib/lifecycle-backfill'
import { fechaEs } from '../../lib/pdf'
import { callerScope } from '../../lib/visibility'
import { contractDetailLoader } from '../business/contracts'
import { bodyObject, visibleContract } from '../business/shared'
import { addHistory, contractFacts, estadoNombre, kleenCheck, type ContractFacts } from './shared'

/** `Errores` as one Spanish sentence list for a 409 body. */
const listed = (errors: readonly string[]) => errors.map((e) => (/[.!?]$/.test(e) ? e : `${e}.`)).join(' ')

/**
 * The contract state machine (README: Ciclo de vida): send to sign, Kleen validation, send
 * to the distributor, and the penalty data. Every refusal is a 409 naming the current state
 * and changes nothing; every change writes the history and `actualizado_en/por`.
 */
export async function stateRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts
  const detail = contractDetailLoader(db)

  /** The visible contract named by a query parameter (or a body field), with its facts. */
  const target = (request: FastifyRequest, name: string, fromBody = false): ContractFacts => {
    const query = request.query as Record<string, unknown>
    let raw = query[name]
    if (fromBody && (raw === undefined || raw === '')) {
      const body = request.body === undefined || request.body === null ? {} : bodyObject(request.body)
      raw = body.CodigoContrato ?? body.codigoContrato
    }
    const code = parseContractCode(raw, fromBody ? 'CodigoContrato' : name)
    const ref = visibleContract(db, callerScope(db, request), code)
    return contractFacts(db, ref.id)!
  }
  const touch = (id: number, estado: string | null, stamp: string, userId: number) => {
    if (estado) db.prepare('UPDATE contratos SET estado = ?, actualizado_en = ?, actualizado_por = ? WHERE id = ?').run(estado, stamp, userId, id)
    else db.prepare('UPDATE contratos SET actualizado_en = ?, actualizado_por = ? WHERE id = ?').run(stamp, userId, id)
  }

  // ── borrador → pendiente_firma ──
  app.put('/api/contract/update/situacion-firma', async (request) => {
    const f = target(request, 'codigoContrato')
    if (f.estado !== 'borrador') {
      fail(409, `El contrato ${f.codigo} está en estado «${estadoNombre(f.estado)}»: solo se puede enviar a firma un contrato en borrador.`)
    }
    const check = kleenCheck(db, f, false)
    if (!check.Valido) fail(409, `El contrato ${f.codigo} no se puede enviar a firma: ${listed(check.Errores)}`)
    const stamp = isoTimestamp(now())
    const userId = request.caller!.userId
    db.transaction(() => {
      const n = (db.prepare('SELECT COUNT(*) AS n FROM contrato_firmas WHERE contrato_id = ?').get(f.id) as { n: number }).n + 1
      const { solicitudId, enlace } = signatureRequest(request.marca.dominio, f.codigo, n, stamp)
      db.prepare("UPDATE contrato_firmas SET estado = 'cancelada' WHERE contrato_id = ? AND estado = 'pendiente'").run(f.id)
      db.prepare(
        `INSERT INTO contrato_firmas (contrato_id, proveedor, solicitud_id, enlace, destinatario, estado, enviada_en, enviada_por, firmada_en, documento_id)
         VALUES (?, ?, ?, ?, ?, 'pendiente', ?, ?, NULL, NULL)`,
      ).run(f.id, SIGNATURE_PROVIDER, solicitudId, enlace, f.cl_email, stamp, userId)
      touch(f.id, 'pendiente_firma', stamp, userId)
      addHistory(db, {
        contratoId: f.id,
        fecha: stamp,
        usuarioId: userId,
        accion: 'envio_firma',
        desde: 'borrador',
        hasta: 'pendiente_firma',
        detalle: `Enviado a firma electrónica a ${f.cl_email} (${SIGNATURE_PROVIDER}, solicitud ${solicitudId}).`,
      })
    })()
    return detail(f.id)
  })

  // ── firmado (validated) → enviado_distribuidora: the switching request, step 01 ──
  app.put('/api/contract/update/situacion', async (request) => {
    const f = target(request, 'codigo')
    if (f.estado !== 'firmado') {
      fail(409, `El contrato ${f.codigo} está en estado «${estadoNombre(f.estado)}»: solo se puede enviar a la distribuidora un contrato firmado y validado.`)
    }
    if (f.validado !== 1) fail(409, `El contrato ${f.codigo} está firmado pero no validado: valídalo (Kleen) antes de enviarlo a la distribuidora.`)
    const stamp = isoTimestamp(now())
    const userId = request.caller!.userId
    const tipo = TIPOS_ALTA.find((t) => t.Id === f.tipo_alta_solicitud_id)?.Codigo ?? 'C1'
    db.transaction(() => {
      touch(f.id, 'enviado_distribuidora', stamp, userId)
      addHistory(db, {
        contratoId: f.id,
        fecha: stamp,
        usuarioId: userId,
        accion: 'envio_distribuidora',
        desde: 'firmado',
        hasta: 'enviado_distribuidora',
        detalle: `Solicitud ${tipo} enviada a ${f.ps_distribuidora_nombre} (paso 01).`,
      })
    })()
    return detail(f.id)
  })

  // ── Kleen validation ──
  app.get('/api/contract/kleen/is-valid', async (request) => {
    const f = target(request, 'codigoContrato')
    return { CodigoContrato: f.codigo, ...kleenCheck(db, f, false) }
  })
  app.get('/api/contract/kleen/is-valid-withdoc', async (request) => {
    const f = target(request, 'codigoContrato')
    return { CodigoContrato: f.codigo, ...kleenCheck(db, f, true) }
  })
  app.put('/api/contract/kleen/validar', async (request) => {
    const f = target(request, 'codigoContrato', true)
    if (f.estado !== 'firmado') fail(409, `El contrato ${f.codigo} está en estado «${estadoNombre(f.estado)}»: solo se puede validar un contrato firmado.`)
    if (f.validado === 1) fail(409, `El contrato ${f.codigo} ya está validado${f.validado_en ? ` (desde el ${fechaEs(f.validado_en)})` : ''}.`)
    const check = kleenCheck(db, f, true)
    if (!check.Valido) fail(409, `El contrato ${f.codigo} no supera la validación: ${listed(check.Errores)}`)
    const stamp = isoTimestamp(now())
    const userId = request.caller!.userId
    db.transaction(() => {
      db.prepare('UPDATE contratos SET validado = 1, validado_en = ?, validado_por = ? WHERE id = ?').run(stamp, userId, f.id)
      touch(f.id, null, stamp, userId)
      addHistory(db, {
        contratoId: f.id,
        fecha: stamp,
        usuarioId: userId,
        accion: 'validacion',
        desde: null,
        hasta: null,
        detalle: `Validación Kleen superada: datos y documentación del contrato correctos${check.Avisos.length ? ` (${check.Avisos.length} aviso${check.Avisos.length > 1 ? 's' : ''})` : ''}.`,
      })
    })()
    return detail(f.id)
  })

  // ── early-termination penalty ──
  app.get('/api/contract/penalizacion', async (request) => {
    const f = target(request, 'codigoContrato')
    const hoy = isoDate(now())
    return calcularPenalizacion(
      {
        codigo: f.codigo,
        estado: f.estado,
        estadoNombre: estadoNombre(f.estado),
        modalidad: f.modalidad,
        fechaActivacion: f.fecha_activacion,
        fechaBaja: f.fecha_baja,
        consumoAnualKwh: f.consumo_anual_kwh,
        precioMedioKwh: precioMedioKwh({ modalidad: f.modalidad, tarifaId: f.tarifa_id, preciosEnergia: PERIODOS.map((p) => f.preciosEnergia[p]), feeMwh: f.fee_mwh }, hoy),
      },
      hoy,
    )
  })
}
