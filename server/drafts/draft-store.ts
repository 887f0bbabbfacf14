/**
 * Form drafts: what a user typed in a form that opted in, kept by the BFF (never in the
 * browser's storage) until the form is submitted, discarded, or left untouched for 7 days.
 */

/** Drafts belong to a user on a brand: a form's values (agents, tariffs) mean nothing on another brand. */
export interface DraftOwner {
  userId: number
  brand: string
}

export interface SavedDraft {
  values: Record<string, unknown>
  /** When it was saved, ms since the epoch. */
  savedAt: number
}

export const DRAFT_TTL_MS = 7 * 24 * 3600_000

export interface DraftStoreOptions {
  /** How long a draft lives after its last save. */
  ttlMs?: number
  /** The clock every expiry decision follows (tests inject one). */
  now?: () => number
}

/**
 * The draft store port. Adapters (embedded SQLite, Redis) pass the same test suite. `get`
 * answers null for a draft never saved, deleted, or saved more than the TTL ago.
 */
export interface DraftStore {
  get(owner: DraftOwner, key: string): Promise<SavedDraft | null>
  /** Saves (replacing any previous draft under this key) and restarts its TTL. */
  put(owner: DraftOwner, key: string, values: Record<string, unknown>): Promise<SavedDraft>
  delete(owner: DraftOwner, key: string): Promise<void>
  ping(): Promise<void>
  close(): Promise<void>
}
