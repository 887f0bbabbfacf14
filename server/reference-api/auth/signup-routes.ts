import type { FastifyInstance } from 'fastify'
import type { ApiContext } from '../lib/context'
import { fail } from '../lib/http'
import { nextId } from '../lib/next-id'
import { checkEmail, objectBody, optionalText, password as passwordField, queryId, requiredText } from '../routes/admin/input'
import { audit, today } from '../routes/admin/shared'
import { requirePermission } from './access-hooks'
import { hashPassword, passwordWeakness } from './passwords'
import type { UsersRepo } from './users-repo'

/** One answer for an address already taken, whoever holds it and in whatever state. */
const TAKEN = 'Ya existe una cuenta con ese correo electrónico. Si es tuya, inicia sesión o recupera la contraseña.'
const NOT_PENDING = (id: number) => `No hay ninguna alta pendiente con el identificador ${id} en esta marca.`

/**
 * Self sign-up (spec §7 "sign-up"): `POST api/auth/register` (public) creates an inactive
 * account that waits for approval in the brand it signed up in; `PUT api/auth/activate?id`
 * lets it sign in, `DELETE api/auth/pending?id` refuses it (the account goes, the address is
 * free again). Both decisions need GESTORACCESS in that same brand.
 */
export async function signupRoutes(app: FastifyInstance, opts: ApiContext & { users: UsersRepo }) {
  const { db, now, users } = opts
  const taken = db.prepare<[string], { id: number }>('SELECT id FROM usuarios WHERE email = ?')
  const insert = db.prepare(
    'INSERT INTO usuarios (id, email, nombre, apellidos, telefono, password_hash, activo, fecha_alta, alta_pendiente_marca_id) VALUES (?, ?, ?, ?, NULL, ?, 0, ?, ?)',
  )
  const pendingIn = (id: number, marcaId: number) => {
    const user = users.find(id)
    return user && !user.activo && user.alta_pendiente_marca_id === marcaId ? user : undefined
  }

  app.post('/api/auth/register', async (request, reply) => {
    const body = objectBody(request.body)
    const email = checkEmail(requiredText(body, 'Email', 'el correo electrónico', 254))
    const nombre = requiredText(body, 'Nombre', 'el nombre', 100)
    const apellidos = optionalText(body, 'Apellidos', 'los apellidos', 150) ?? ''
    const password = passwordField(body, 'Password', 'la contraseña')
    if (!password) fail(400, 'Falta la contraseña.')
    const weakness = passwordWeakness(password)
    if (weakness) fail(400, weakness)
    if (taken.get(email)) fail(409, TAKEN)
    const hash = await hashPassword(password)
    const marcaId = request.marca.id
    const id = db.transaction(() => {
      // Again inside the transaction: hashing gave another request time to take the address.
      if (taken.get(email)) fail(409, TAKEN)
      const userId = nextId(db, 'usuarios')
      insert.run(userId, email, nombre, apellidos, hash, today(now), marcaId)
      audit(db, request, now(), { accion: 'usuario.registro', entidad: 'usuario', entidadId: userId, detalle: { Email: email, Marca: request.marca.dominio } })
      return userId
    })()
    return reply.code(201).send({ Id: id, Email: email, Nombre: nombre, Apellidos: apellidos, Estado: 'pendiente' })
  })

  app.put('/api/auth/activate', { onRequest: requirePermission('GESTORACCESS') }, async (request) => {
    const id = queryId(request.query, ['id', 'Id'], 'usuario')
    const user = pendingIn(id, request.marca.id)
    if (!user) fail(404, NOT_PENDING(id))
    db.transaction(() => {
      db.prepare('UPDATE usuarios SET activo = 1, alta_pendiente_marca_id = NULL WHERE id = ?').run(id)
      audit(db, request, now(), { accion: 'usuario.registro.aprobado', entidad: 'usuario', entidadId: id, detalle: { Email: user.email } })
    })()
    return { Id: id, Email: user.email, Activo: true }
  })

  app.delete('/api/auth/pending', { onRequest: requirePermission('GESTORACCESS') }, async (request, reply) => {
    const id = queryId(request.query, ['id', 'Id'], 'usuario')
    const user = pendingIn(id, request.marca.id)
    if (!user) fail(404, NOT_PENDING(id))
    db.transaction(() => {
      db.prepare('DELETE FROM usuarios WHERE id = ? AND activo = 0 AND alta_pendiente_marca_id IS NOT NULL').run(id)
      audit(db, request, now(), { accion: 'usuario.registro.rechazado', entidad: 'usuario', entidadId: id, detalle: { Email: user.email } })
    })()
    return reply.code(204).send()
  })
}
