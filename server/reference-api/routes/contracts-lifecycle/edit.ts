import type { FastifyInstance } from 'fastify'
import { isoTimestamp } from '../../lib/catalogos'
import { parseContractCode } from '../../lib/codigos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { assertCurrentVersion, sendVersioned } from '../../lib/record-version'
import { callerScope } from '../../lib/visibility'
import { contractDetailLoader } from '../business/contracts'
import { bodyObject, visibleContract } from '../business/shared'
import { parseHolder, parseIban } from './insert'
import { addHistory, estadoNombre } from './shared'

/** States whose contract is closed: its holder and bank data are history, not edited. */
const CLOSED = new Set(['baja', 'anulado', 'desistido'])

/** The holder fields of the edit, by the labels the history names them with. */
const HOLDER_LABELS: Record<string, string> = {
  tipo: 'tipo de titular',
  nif: 'NIF',
  nombre: 'nombre',
  apellido1: 'primer apellido',
  apellido2: 'segundo apellido',
  razon_social: 'razón social',
  forma_juridica: 'forma jurídica',
  email: 'correo electrónico',
  telefono: 'teléfono',
  direccion: 'dirección',
  codigo_postal: 'código postal',
  municipio: 'municipio',
  provincia_id: 'provincia',
}

/**
 * `PUT /api/contract/update?codigo=…`: the holder, contact and bank data of a contract, the body
 * being the contract as `GET /api/contract/id` returned it (other fields are ignored). The holder
 * is the brand's client record, shared by the client's other contracts. Honours `If-Match`.
 */
export async function editRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts
  const detail = contractDetailLoader(db)
  const clientRow = db.prepare('SELECT * FROM clientes WHERE id = (SELECT cliente_id FROM contratos WHERE id = ?)')
  const nifTaken = db.prepare('SELECT 1 FROM clientes WHERE marca_id = ? AND nif = ? AND id <> ?')

  app.put('/api/contract/update', async (request, reply) => {
    const code = parseContractCode((request.query as Record<string, unknown>).codigo, 'codigo')
    const ref = visibleContract(db, callerScope(db, request), code)
    const body = bodyObject(request.body)
    const rawHolder = body.Cliente
    if (rawHolder === null || typeof rawHolder !== 'object' || Array.isArray(rawHolder)) fail(400, 'Cliente: Faltan los datos del titular.')
    const holder = rawHolder as Record<string, unknown>
    // The GET names the province as an object; the insert as an id: either is accepted.
    const provincia = holder.Provincia as { Id?: unknown } | null | undefined
    const cliente = parseHolder({ ...holder, ProvinciaId: holder.ProvinciaId ?? provincia?.Id })
    const iban = parseIban(body, 'Iban', 'Iban').normalized
    if (CLOSED.has(ref.estado)) fail(409, `El contrato ${ref.codigo} está en estado «${estadoNombre(ref.estado)}»: sus datos ya no se pueden modificar.`)
    const stamp = isoTimestamp(now())
    const userId = request.caller!.userId

    // Synchronous from the version check to the write: no other save can land in between.
    db.transaction(() => {
      assertCurrentVersion(request, detail(ref.id), `El contrato ${ref.codigo}`)
      const before = clientRow.get(ref.id) as Record<string, unknown> & { id: number; marca_id: number }
      if (nifTaken.get(before.marca_id, cliente.Nif, before.id)) fail(409, `Cliente.Nif: Ya existe otro cliente con el NIF ${cliente.Nif} en esta marca.`)
      const next: Record<string, unknown> = {
        tipo: cliente.Tipo,
        nif: cliente.Nif,
        nombre: cliente.Nombre,
        apellido1: cliente.Apellido1,
        apellido2: cliente.Apellido2,
        razon_social: cliente.RazonSocial,
        forma_juridica: cliente.FormaJuridica,
        email: cliente.Email,
        telefono: cliente.Telefono,
        direccion: cliente.Direccion,
        codigo_postal: cliente.CodigoPostal,
        municipio: cliente.Municipio,
        provincia_id: cliente.ProvinciaId,
      }
      const changed = Object.keys(next).filter((k) => next[k] !== before[k])
      const oldIban = (db.prepare('SELECT iban FROM contratos WHERE id = ?').get(ref.id) as { iban: string | null }).iban
      if (changed.length > 0) {
        db.prepare(`UPDATE clientes SET ${changed.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...next, id: before.id })
      }
      const ibanChanged = oldIban !== iban
      if (ibanChanged) db.prepare('UPDATE contratos SET iban = ? WHERE id = ?').run(iban, ref.id)
      if (changed.length === 0 && !ibanChanged) return
      db.prepare('UPDATE contratos SET actualizado_en = ?, actualizado_por = ? WHERE id = ?').run(stamp, userId, ref.id)
      // The history names what changed, never the values (they are personal data).
      const names = [...changed.map((k) => HOLDER_LABELS[k]!), ...(ibanChanged ? ['IBAN de domiciliación'] : [])]
      addHistory(db, { contratoId: ref.id, fecha: stamp, usuarioId: userId, accion: 'modificacion_datos', desde: null, hasta: null, detalle: `Datos modificados: ${names.join(', ')}.` })
    })()
    return sendVersioned(reply, detail(ref.id))
  })
}
