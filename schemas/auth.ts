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
