import type { FastifyInstance } from 'fastify'
import { validateCups } from '../../domain/identifiers'
import { ofertaPrecioFijo } from '../../domain/precios'
import { isoDate, tarifaById } from '../../lib/catalogos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { callerScope } from '../../lib/visibility'
import { bodyObject, positiveInt } from '../business/shared'
import { agentVisible, contractInForce, estadoNombre } from './shared'
import { MAX_IDENTIFIER_LENGTH } from './validators'

/** A tariff id from the query or a body (400 when missing or unknown). */
export function tarifaParam(value: unknown, name = 'tarifa') {
  if (value === undefined || value === null || value === '') fail(400, `Falta el parámetro ${name} (Id de la tarifa: 1 = 2.0TD, 2 = 3.0TD, 3 = 6.1TD…).`)
  const id = positiveInt(value, name)
  const tarifa = tarifaById.get(id)
  if (!tarifa) fail(400, `La tarifa ${id} no existe (GET /api/utility/tarifas).`)
  return tarifa
}

/** `POST /api/cups/isactive` and `GET /api/energia/preciofijo` (spec §7). */
export async function supplyRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  app.post('/api/cups/isactive', async (request) => {
    const body = bodyObject(request.body)
    const raw = body.cups ?? body.Cups
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) fail(400, 'Falta el CUPS (cups).')
    if (typeof raw !== 'string') fail(400, 'El CUPS (cups) debe ser un texto.')
    if (raw.length > MAX_IDENTIFIER_LENGTH) fail(400, `El CUPS no puede tener más de ${MAX_IDENTIFIER_LENGTH} caracteres.`)
    const v = validateCups(raw)
    if (!v.valid) fail(400, `El CUPS ${v.normalized} no es válido: ${v.reason}`)
    const scope = callerScope(db, request)
    const contract = contractInForce(db, scope.marcaId, v.normalized)
    const visible = contract !== undefined && agentVisible(scope, contract.agente_id)
    return {
      Cups: v.normalized,
      Activo: contract !== undefined,
      CodigoContrato: visible ? contract.codigo : null,
      Estado: visible ? contract.estado : null,
      EstadoNombre: visible ? estadoNombre(contract.estado) : null,
    }
  })

  app.get('/api/energia/preciofijo', async (request) => {
    const tarifa = tarifaParam((request.query as Record<string, unknown>).tarifa)
    return ofertaPrecioFijo(tarifa, request.marca.dominio, isoDate(now()))
  })
}
