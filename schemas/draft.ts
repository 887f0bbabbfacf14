import Type from 'typebox'

/**
 * Form drafts kept by the BFF (`GET/PUT/DELETE /bff/drafts/:key`). The key is chosen by the
 * screen's form (`"draft": { "key": "…" }`); the body is an object of form values.
 */
export const DRAFT_KEY_PATTERN = '^[A-Za-z0-9_-]{1,64}$'
const draftKeyRegExp = new RegExp(DRAFT_KEY_PATTERN)

export const DraftKey = Type.String({ pattern: DRAFT_KEY_PATTERN })

export function isDraftKey(key: unknown): key is string {
  return typeof key === 'string' && draftKeyRegExp.test(key)
}

/** `GET /bff/drafts/:key`: the values and when they were saved (ms since the epoch). */
export interface DraftAnswer {
  values: Record<string, unknown>
  savedAt: number
}

/** `PUT /bff/drafts/:key`. */
export interface DraftSaved {
  savedAt: number
}
