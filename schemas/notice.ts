import Type from 'typebox'

/** A text of a notice, in Spanish and English (it names records and people, so it may be long). */
const NoticeText = Type.Object({ es: Type.String({ minLength: 1, maxLength: 500 }), en: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false })

/**
 * Something the BFF tells one user on their next page load, whichever replica they reach: a
 * decision about their held request, its expiry. Shown once as a toast, then dismissed.
 * `GET /bff/notices`, `POST /bff/notices/dismiss { ids }`.
 */
export const Notice = Type.Object(
  {
    id: Type.String(),
    /** ISO instant. */
    at: Type.String(),
    severity: Type.Enum(['info', 'success', 'warn']),
    title: NoticeText,
    text: NoticeText,
  },
  { additionalProperties: false },
)
export type Notice = Type.Static<typeof Notice>

export const DismissNoticesBody = Type.Object({ ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 100 }) }, { additionalProperties: false })
export type DismissNoticesBody = Type.Static<typeof DismissNoticesBody>
