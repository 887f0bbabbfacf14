import type { ImportJobView } from '../../schemas/import'

/** A job is kept this long after it was uploaded (its result file and undo with it). */
export const IMPORT_JOB_TTL_MS = 30 * 86_400_000

/** What undoing one sent row needs: the record, its version after the import, the value it replaced. */
export interface UndoEntry {
  row: number
  key: string
  record: string
  /** The record's version (ETag) right after the import (delete undo). */
  version?: string
  /** The field's value before and after the import (restore undo). */
  previous?: unknown
  imported?: unknown
}

/** An import as stored: its owner's view plus what only the BFF needs. */
/** Keys asked of a store at once. */
export const PEEK_CHUNK = 500

export interface StoredJob extends ImportJobView {
  brand: string
  ownerId: number
  createdAt: number
  undoData: UndoEntry[]
}

/** A row remembered as imported (or being sent) for a brand and import. */
export interface ImportedKey {
  job: string
  row: number
  /** The record it created or changed; absent while it is being sent. */
  record?: string
  /** The row's value of the import's unique column (a CUPS). */
  unique?: string
}

/**
 * Bulk imports: the jobs (their view, kept IMPORT_JOB_TTL_MS), their rows (sealed: they hold
 * personal data), and per brand and import the rows already imported, by the hash of the
 * normalised row, so a file sent twice creates nothing twice. Adapters: SQLite, Redis.
 */
export interface ImportStore {
  saveJob(job: StoredJob): Promise<void>
  job(id: string): Promise<StoredJob | null>
  saveRows(id: string, sealed: string): Promise<void>
  rows(id: string): Promise<string | null>
  /** Takes `key` for a row about to be sent: null when it was free, else who holds it. */
  claim(brand: string, definition: string, key: string, entry: ImportedKey): Promise<ImportedKey | null>
  /** Who holds each of `keys` (those held), without taking them. */
  peekMany(brand: string, definition: string, keys: readonly string[]): Promise<Map<string, ImportedKey>>
  /** The row was imported: remembered with its record (and unique value). */
  settle(brand: string, definition: string, key: string, entry: ImportedKey): Promise<void>
  /** Forgets a key: its row failed, or its import was undone. */
  release(brand: string, definition: string, key: string): Promise<void>
  /** The imported rows holding each of these unique values (those held, with a record). */
  uniqueHolders(brand: string, definition: string, values: readonly string[]): Promise<Map<string, ImportedKey & { key: string }>>
  close(): Promise<void>
}
