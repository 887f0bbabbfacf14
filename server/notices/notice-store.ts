import type { Notice } from '../../schemas/notice'

export type { Notice }

/** A notice is kept this long, seen or not. */
export const NOTICE_TTL_MS = 30 * 86_400_000

/**
 * Notices per user, kept until the user dismisses them (or NOTICE_TTL_MS): any part of the BFF
 * adds one for a user who is not there; the client shows them on its next load. Adapters:
 * embedded SQLite, Redis.
 */
export interface NoticeStore {
  add(userId: number, notice: Notice): Promise<void>
  /** Not yet dismissed, oldest first. */
  pending(userId: number): Promise<Notice[]>
  dismiss(userId: number, ids: string[]): Promise<void>
  close(): Promise<void>
}
