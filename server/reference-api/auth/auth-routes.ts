import type { FastifyInstance } from 'fastify'
import Type from 'typebox'
import { createHash, randomBytes } from 'node:crypto'
import { PENDING_APPROVAL_MESSAGE } from '../../../schemas/auth'
import type { Mailer } from '../mail/mailer'
import type { ApiContext } from '../lib/context'
import { fail } from '../lib/http'
import { passwordWeakness, verifyPassword } from './passwords'
import { hashPassword } from './passwords'
import type { TokenService } from './tokens'
import type { UsersRepo } from './users-repo'

/** A rotated refresh token still works this long, so two BFF instances refreshing at once both succeed. */
const ROTATION_GRACE_S = 30
const RESET_TTL_S = 3600
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$' + 'A'.repeat(86)

/** A view-as token lasts an hour: an admin's look, not a second account. */
const VIEW_AS_TTL_S = 3600
const ImpersonateBody = Type.Object({ UserId: Type.Integer({ minimum: 1 }) }, { additionalProperties: false })
const LoginBody = Type.Object({ username: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 256 }) })
const RefreshBody = Type.Object({ refreshToken: Type.String({ minLength: 1, maxLength: 4096 }) })
const LogoutBody = Type.Object({ refreshToken: Type.Optional(Type.Union([Type.String({ maxLength: 4096 }), Type.Null()])) })
const RequestChangeBody = Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }) })
const ChangeBody = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 254 }),
  token: Type.String({ minLength: 10, maxLength: 200 }),
  newPassword: Type.String({ minLength: 1, maxLength: 256 }),
})

/**
 * The upstream's auth module: sign-in, refresh (rotating refresh tokens), sign-out
 * (revokes the refresh token), get-session, and password recovery by mailed token.
 */
export async function authRoutes(app: FastifyInstance, opts: ApiContext & { tokens: TokenService; users: UsersRepo; mailer: Mailer }) {
  const { db, tokens, users, mailer, now } = opts
  const nowS = () => Math.floor(now() / 1000)
  const insertRefresh = db.prepare('INSERT INTO refresh_tokens (jti, usuario_id, issued_at, expires_at) VALUES (?, ?, ?, ?)')
  const getRefresh = db.prepare<[string], { jti: string; usuario_id: number; issued_at: number; expires_at: number; revoked_at: number | null; replaced_by: string | null; replaced_at: number | null }>(
    'SELECT * FROM refresh_tokens WHERE jti = ?',
  )
  const rotate = db.prepare('UPDATE refresh_tokens SET replaced_by = ?, replaced_at = ? WHERE jti = ? AND replaced_by IS NULL')
  const revoke = db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE jti = ? AND usuario_id = ? AND revoked_at IS NULL')
  const revokeAll = db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE usuario_id = ? AND revoked_at IS NULL')
  const touchLogin = db.prepare('UPDATE usuarios SET ultimo_acceso = ? WHERE id = ?')

  const issuePair = async (userId: number) => {
    const refresh = await tokens.refresh(userId)
    insertRefresh.run(refresh.jti, userId, refresh.iat, refresh.exp)
    return { token: await tokens.access(userId), refreshToken: refresh.token }
  }

  app.post<{ Body: Type.Static<typeof LoginBody> }>('/api/auth/login', { schema: { body: LoginBody } }, async (request) => {
    const user = users.findByEmail(request.body.username)
    // Same work whether or not the user exists, so timing does not reveal accounts.
    const ok = await verifyPassword(request.body.password, user?.password_hash.startsWith('scrypt$') ? user.password_hash : DUMMY_HASH)
    // Told only to whoever knows the password: a sign-up still waiting for its approval.
    if (user && ok && !user.activo && user.alta_pendiente_marca_id !== null) fail(403, PENDING_APPROVAL_MESSAGE)
    if (!user || !ok || !user.activo) fail(401, 'Usuario o contraseña incorrectos.')
    touchLogin.run(new Date(now()).toISOString(), user.id)
    return issuePair(user.id)
  })

  app.post<{ Body: Type.Static<typeof RefreshBody> }>('/api/auth/refresh', { schema: { body: RefreshBody } }, async (request) => {
    const claims = await tokens.verify(request.body.refreshToken, 'refresh')
    const row = claims && getRefresh.get(claims.jti)
    if (!claims || !row || row.revoked_at !== null || row.expires_at <= nowS()) fail(401, 'La sesión ha caducado. Inicia sesión de nuevo.')
    const user = users.find(row.usuario_id)
    if (!user || !user.activo) fail(401, 'El usuario no existe o está desactivado.')
    if (row.replaced_by) {
      const successor = getRefresh.get(row.replaced_by)
      if (!successor || row.replaced_at === null || nowS() - row.replaced_at > ROTATION_GRACE_S || successor.revoked_at !== null) {
        fail(401, 'La sesión ha caducado. Inicia sesión de nuevo.')
      }
      const again = await tokens.refresh(user.id, { jti: successor.jti, iat: successor.issued_at, exp: successor.expires_at })
      return { token: await tokens.access(user.id), refreshToken: again.token }
    }
    const next = await tokens.refresh(user.id)
    db.transaction(() => {
      insertRefresh.run(next.jti, user.id, next.iat, next.exp)
      rotate.run(next.jti, nowS(), row.jti)
    })()
    return { token: await tokens.access(user.id), refreshToken: next.token }
  })

  app.post<{ Body: Type.Static<typeof LogoutBody> }>('/api/auth/logout', { schema: { body: LogoutBody } }, async (request, reply) => {
    const refreshToken = request.body?.refreshToken
    if (refreshToken) {
      const claims = await tokens.verify(refreshToken, 'refresh')
      if (claims) revoke.run(nowS(), claims.jti, request.caller!.userId)
    }
    return reply.code(204).send()
  })

  // View-as: a read-only token of another user for an admin (GESTORACCESS), naming the admin.
  app.post<{ Body: Type.Static<typeof ImpersonateBody> }>('/api/auth/impersonate', { schema: { body: ImpersonateBody } }, async (request) => {
    const caller = request.caller!
    if (caller.actorId !== undefined) fail(403, 'Sesión de solo lectura («ver como»): no se puede cambiar nada.')
    if (!caller.permissions.has('GESTORACCESS')) fail(403, 'No tienes permiso para esta operación (requiere GESTORACCESS).')
    const target = users.find(request.body.UserId)
    if (!target) fail(404, `No existe el usuario ${request.body.UserId}.`)
    if (!target.activo) fail(400, 'El usuario está desactivado: no se puede ver el portal como él.')
    if (target.id === caller.userId) fail(400, 'Ya estás viendo el portal como tú mismo.')
    const { token, exp } = await tokens.viewAs(target.id, caller.userId, VIEW_AS_TTL_S)
    return { token, expiresAt: new Date(exp * 1000).toISOString() }
  })

  app.get('/api/auth/session', async (request) => {
    const user = users.find(request.caller!.userId)!
    return users.sessionUser(user, request.marca.id)
  })

  app.post<{ Body: Type.Static<typeof RequestChangeBody> }>(
    '/api/auth/request-change-password',
    { schema: { body: RequestChangeBody } },
    async (request) => {
      const user = users.findByEmail(request.body.email)
      if (user && user.activo) {
        const token = randomBytes(32).toString('base64url')
        db.prepare('INSERT INTO password_resets (usuario_id, token_hash, expires_at) VALUES (?, ?, ?)').run(user.id, sha256(token), nowS() + RESET_TTL_S)
        const host = String(request.headers['x-forwarded-host'] ?? `portal.${request.marca.dominio}`)
        const proto = String(request.headers['x-forwarded-proto'] ?? 'https')
        const link = `${proto}://${host}/auth/resetpassword?email=${encodeURIComponent(user.email)}&token=${token}`
        await mailer.send({
          to: user.email,
          subject: `${request.marca.nombre}: restablecer la contraseña`,
          text: [
            `Hola ${user.nombre}:`,
            '',
            `Hemos recibido una solicitud para restablecer tu contraseña del portal de ${request.marca.nombre}.`,
            'Abre este enlace para elegir una nueva (caduca en una hora y solo sirve una vez):',
            '',
            link,
            '',
            `Código de verificación: ${token}`,
            '',
            'Si no lo has pedido tú, ignora este mensaje: tu contraseña no cambia.',
          ].join('\n'),
        })
      }
      // The same answer whether or not the address exists: no account enumeration.
      return { message: 'Si la dirección corresponde a un usuario, recibirá un correo con las instrucciones.' }
    },
  )

  app.post<{ Body: Type.Static<typeof ChangeBody> }>('/api/auth/change-password', { schema: { body: ChangeBody } }, async (request) => {
    const user = users.findByEmail(request.body.email)
    const reset = user
      ? (db
          .prepare('SELECT id, expires_at, used_at FROM password_resets WHERE token_hash = ? AND usuario_id = ?')
          .get(sha256(request.body.token), user.id) as { id: number; expires_at: number; used_at: number | null } | undefined)
      : undefined
    if (!user || !reset || reset.used_at !== null || reset.expires_at <= nowS()) {
      fail(400, 'El enlace para restablecer la contraseña no es válido o ha caducado. Solicita uno nuevo.')
    }
    const weakness = passwordWeakness(request.body.newPassword)
    if (weakness) fail(400, weakness)
    const hash = await hashPassword(request.body.newPassword)
    db.transaction(() => {
      db.prepare('UPDATE usuarios SET password_hash = ? WHERE id = ?').run(hash, user.id)
      db.prepare('UPDATE password_resets SET used_at = ? WHERE id = ?').run(nowS(), reset.id)
      revokeAll.run(nowS(), user.id)
    })()
    return { message: 'Contraseña cambiada. Ya puedes iniciar sesión.' }
  })
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
