import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
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
/** Random bytes of a withdrawal token: as hard to guess as a session key. */
const WITHDRAWAL_TOKEN_BYTES = 32

const digest = (token: string) => createHash('sha256').update(token).digest('hex')
/** Whether `token` is the one whose digest was kept (compared in constant time). */
function sameToken(hash: string | null, token: string): boolean {
  if (!hash) return false
  const expected = Buffer.from(hash, 'hex')
  const given = Buffer.from(digest(token), 'hex')
  return expected.length === given.length && timingSafeEqual(expected, given)
}

/**
 * Self sign-up (spec §7 "sign-up"): `POST api/auth/register` (public) creates an inactive
 * account that waits for approval in the brand it signed up in; `PUT api/auth/activate?id`
 * lets it sign in, `DELETE api/auth/pending?id` refuses it (the account goes, the address is
 * free again). Both decisions need GESTORACCESS in that same brand. The registration answers,
 * once, a withdrawal token: `POST api/auth/register/withdraw { Id, Token }` removes the account
 * while it still waits, with no session (the portal withdraws a sign-up nobody decided in time).
 */
export async function signupRoutes(app: FastifyInstance, opts: ApiContext & { users: UsersRepo }) {
  const { db, now, users } = opts
  const taken = db.prepare<[string], { id: number }>('SELECT id FROM usuarios WHERE email = ?')
  const insert = db.prepare(
    'INSERT INTO usuarios (id, email, nombre, apellidos, telefono, password_hash, activo, fecha_alta, alta_pendiente_marca_id, alta_retirada_hash) VALUES (?, ?, ?, ?, NULL, ?, 0, ?, ?, ?)',
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
    const withdrawal = randomBytes(WITHDRAWAL_TOKEN_BYTES).toString('base64url')
    const id = db.transaction(() => {
      // Again inside the transaction: hashing gave another request time to take the address.
      if (taken.get(email)) fail(409, TAKEN)
      const userId = nextId(db, 'usuarios')
      insert.run(userId, email, nombre, apellidos, hash, today(now), marcaId, digest(withdrawal))
      audit(db, request, now(), { accion: 'usuario.registro', entidad: 'usuario', entidadId: userId, detalle: { Email: email, Marca: request.marca.dominio } })
      return userId
    })()
    return reply.code(201).send({ Id: id, Email: email, Nombre: nombre, Apellidos: apellidos, Estado: 'pendiente', TokenRetirada: withdrawal })
  })

  app.put('/api/auth/activate', { onRequest: requirePermission('GESTORACCESS') }, async (request) => {
    const id = queryId(request.query, ['id', 'Id'], 'usuario')
    const user = pendingIn(id, request.marca.id)
    if (!user) fail(404, NOT_PENDING(id))
    db.transaction(() => {
      db.prepare('UPDATE usuarios SET activo = 1, alta_pendiente_marca_id = NULL, alta_retirada_hash = NULL WHERE id = ?').run(id)
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

  // No session: the token the registration answered is the credential, for this account alone.
  app.post('/api/auth/register/withdraw', async (request, reply) => {
    const body = objectBody(request.body)
    const id = body.Id
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) fail(400, 'Id: indica el identificador de la cuenta.')
    const token = typeof body.Token === 'string' ? body.Token : ''
    if (token.length < 16 || token.length > 200) fail(400, 'Token: falta el código de retirada del alta.')
    const user = pendingIn(id, request.marca.id)
    // A wrong token reads as no such sign-up: it tells nothing about the account.
    if (!user || !sameToken(user.alta_retirada_hash, token)) fail(404, NOT_PENDING(id))
    db.transaction(() => {
      db.prepare('DELETE FROM usuarios WHERE id = ? AND activo = 0 AND alta_pendiente_marca_id IS NOT NULL').run(id)
      audit(db, request, now(), { accion: 'usuario.registro.retirado', entidad: 'usuario', entidadId: id, detalle: { Email: user.email } })
    })()
    return reply.code(204).send()
  })
}
