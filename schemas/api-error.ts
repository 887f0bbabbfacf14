import Type from 'typebox'

/** Every BFF error body: `{ statusCode, error, message }` with a Spanish message. */
export const ApiError = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
})
export type ApiError = Type.Static<typeof ApiError>
