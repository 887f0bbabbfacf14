import type { FastifyInstance } from 'fastify'
import { isoDate, isoTimestamp } from '../../lib/catalogos'
import { parseContractCode } from '../../lib/codigos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { fechaEs } from '../../lib/pdf'
import { assertCurrentVersion, sendVersioned } from '../../lib/record-version'
import { callerScope } from '../../lib/visibility'
import { contractDetailLoader } from '../business/contracts'
import { bodyObject, isoDayParam, visibleContract } from '../business/shared'
import { addHistory, contractFacts, estadoNombre } from './shared'

/** States before supply starts: a contract in them can be cancelled (`anulado`). */
export const ANULABLES = ['borrador', 'pendiente_firma', 'firmado', 'enviado_distribuidora', 'aceptado', 'rechazado'] as const
/** How far ahead an end of supply may be dated (the distributor's notice). */
const BAJA_MAX_DAYS_AHEAD = 30
const DAY_MS = 24 * 3600_000
const MOTIVO_MIN = 3
const MOTIVO_MAX = 500

/** The body of the end call, checked: the target state, the reason and the day it takes effect (null: today). */
function parseEnd(raw: unknown): { estado: 'baja' | 'anulado'; motivo: string; fecha: string | null } {
  const body = bodyObject(raw)
  const estado = body.Estado
  if (estado !== 'baja' && estado !== 'anulado') fail(400, 'Estado: debe ser «baja» (fin del suministro) o «anulado» (anulación antes del suministro).')
  const motivo = typeof body.Motivo === 'string' ? body.Motivo.trim() : ''
  if (motivo.length < MOTIVO_MIN) fail(400, 'Motivo: indica el motivo (al menos 3 caracteres).')
  if (motivo.length > MOTIVO_MAX) fail(400, `Motivo: no puede pasar de ${MOTIVO_MAX} caracteres.`)
  const fecha = body.Fecha === undefined || body.Fecha === null || body.Fecha === '' ? null : isoDayParam(body.Fecha, 'Fecha')
  return { estado, motivo, fecha }
}

/**
 * `PUT /api/contract/update/fin?codigo=…` `{ Estado, Motivo, Fecha? }`: the end of a contract
 * (README: Ciclo de vida). `baja` ends the supply of an active contract on `Fecha` (not before
 * its activation, at most 30 days ahead); `anulado` cancels a contract that never started supply
 * (`Fecha` not before its sign-up nor in the future). Every refusal is a 409 naming the current
 * state and changes nothing; honours `If-Match` like the contract's other writes.
 */
export async function endRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts
  const detail = contractDetailLoader(db)

  app.put('/api/contract/update/fin', async (request, reply) => {
    const code = parseContractCode((request.query as Record<string, unknown>).codigo, 'codigo')
    const ref = visibleContract(db, callerScope(db, request), code)
    const end = parseEnd(request.body)
    const stamp = isoTimestamp(now())
    const today = isoDate(now())
    const userId = request.caller!.userId

    // Synchronous from the checks to the write: no other change lands in between.
    db.transaction(() => {
      const f = contractFacts(db, ref.id)!
      // The version first (RFC 9110 §13.2.2): ended or cancelled by someone else since the caller
      // read it is a changed contract (412, so the form shows what changed), not a refused state.
      assertCurrentVersion(request, detail(f.id), `El contrato ${f.codigo}`)
      const estado = `El contrato ${f.codigo} está en estado «${estadoNombre(f.estado)}»`
      if (end.estado === 'baja') {
        if (f.estado !== 'activo') fail(409, `${estado}: solo se puede dar de baja un contrato activo.`)
      } else if (!(ANULABLES as readonly string[]).includes(f.estado)) {
        fail(409, `${estado}: solo se puede anular un contrato que aún no suministra (de borrador a aceptado o rechazado); un contrato activo se da de baja.`)
      }
      const fecha = end.fecha ?? today
      if (end.estado === 'baja') {
        const desde = (f.fecha_activacion ?? f.fecha_alta).slice(0, 10)
        if (fecha < desde) fail(400, `Fecha: la baja no puede ser anterior a la activación del suministro (${fechaEs(desde)}).`)
        const limite = isoDate(now() + BAJA_MAX_DAYS_AHEAD * DAY_MS)
        if (fecha > limite) fail(400, `Fecha: la baja no puede fecharse más de ${BAJA_MAX_DAYS_AHEAD} días por delante (hasta el ${fechaEs(limite)}).`)
      } else {
        if (fecha < f.fecha_alta.slice(0, 10)) fail(400, `Fecha: la anulación no puede ser anterior al alta del contrato (${fechaEs(f.fecha_alta)}).`)
        if (fecha > today) fail(400, 'Fecha: la anulación no puede fecharse en el futuro.')
      }

      if (end.estado === 'baja') {
        db.prepare('UPDATE contratos SET estado = ?, fecha_baja = ?, actualizado_en = ?, actualizado_por = ? WHERE id = ?').run('baja', fecha, stamp, userId, f.id)
      } else {
        db.prepare('UPDATE contratos SET estado = ?, actualizado_en = ?, actualizado_por = ? WHERE id = ?').run('anulado', stamp, userId, f.id)
        // A signature still waiting is no longer wanted.
        db.prepare("UPDATE contrato_firmas SET estado = 'cancelada' WHERE contrato_id = ? AND estado = 'pendiente'").run(f.id)
      }
      addHistory(db, {
        contratoId: f.id,
        fecha: stamp,
        usuarioId: userId,
        accion: end.estado === 'baja' ? 'baja' : 'anulacion',
        desde: f.estado,
        hasta: end.estado,
        detalle: end.estado === 'baja' ? `Baja del suministro con fecha ${fechaEs(fecha)}: ${end.motivo}` : `Contrato anulado con fecha ${fechaEs(fecha)}: ${end.motivo}`,
      })
    })()
    return sendVersioned(reply, detail(ref.id))
  })
}
