import Type from 'typebox'

/** A text shown to users: Spanish always, English when translated. */
export const LocalizedText = Type.Object(
  { es: Type.String({ minLength: 1, maxLength: 120 }), en: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })) },
  { additionalProperties: false },
)
export type LocalizedText = Type.Static<typeof LocalizedText>

export const Language = Type.Union([Type.Literal('es'), Type.Literal('en')])
export type Language = Type.Static<typeof Language>
