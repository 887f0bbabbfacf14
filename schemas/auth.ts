import Type from 'typebox'
import { SessionUser } from './session-user'

export const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
)
export type LoginBody = Type.Static<typeof LoginBody>

export const SessionResponse = Type.Object({ user: SessionUser })
export type SessionResponse = Type.Static<typeof SessionResponse>

/** The upstream's sign-in and refresh answer. */
export const TokenPair = Type.Object({
  token: Type.String({ minLength: 1 }),
  refreshToken: Type.Optional(Type.String({ minLength: 1 })),
})
export type TokenPair = Type.Static<typeof TokenPair>

/** `PUT /api/usuarios/password`: the signed-in user changes their own password. */
export const OwnPasswordBody = Type.Object(
  { OldPassword: Type.String({ minLength: 1, maxLength: 256 }), NewPassword: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
)
export type OwnPasswordBody = Type.Static<typeof OwnPasswordBody>

/** `PUT /api/usuarios/change-pass-admin?Id`: an admin sets a user's password. */
export const AdminPasswordBody = Type.Object({ Password: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false })
export type AdminPasswordBody = Type.Static<typeof AdminPasswordBody>
export const UserIdQuery = Type.Object({ Id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false })
export type UserIdQuery = Type.Static<typeof UserIdQuery>

/** `POST /api/auth/request-change-password`: mail me a recovery link. */
export const RecoveryRequestBody = Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }) }, { additionalProperties: false })
export type RecoveryRequestBody = Type.Static<typeof RecoveryRequestBody>

/** `POST /api/auth/change-password`: the recovery link's new password. */
export const RecoveryPasswordBody = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }), token: Type.String({ minLength: 1, maxLength: 512 }), newPassword: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
)
export type RecoveryPasswordBody = Type.Static<typeof RecoveryPasswordBody>

/**
 * `POST /bff/auth/signup` (spec §7 sign-up): the new account's owner, as the upstream's
 * `POST api/auth/register` takes it. The upstream checks the address and the password rules.
 */
export const SignUpBody = Type.Object(
  {
    Email: Type.String({ minLength: 3, maxLength: 254 }),
    Nombre: Type.String({ minLength: 1, maxLength: 100 }),
    Apellidos: Type.Optional(Type.String({ maxLength: 150 })),
    Password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
)
export type SignUpBody = Type.Static<typeof SignUpBody>

/** The upstream's sign-in refusal (403) of an account whose sign-up waits for approval, passed on as such. */
export const PENDING_APPROVAL_MESSAGE = 'Tu cuenta está pendiente de aprobación.'
