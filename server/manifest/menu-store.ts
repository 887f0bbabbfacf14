import type { Author } from '../../schemas/admin'

export type { Author }

/** One stored version of an admin-edited document (a brand's menu overlay, a screen's overlay). */
export interface StoredVersion<T = unknown> {
  doc: string
  version: number
  body: T
  author: Author
  createdAt: number
  kind: 'edit' | 'rollback'
  /** For a rollback: the version it restored. */
  restoredFrom: number | null
}

/** A save that expected another current version: someone else saved first. */
export class VersionConflictError extends Error {
  constructor(readonly current: StoredVersion | null) {
    super('version conflict')
  }
}

/**
 * The menu store port: versioned documents with optimistic concurrency, their history, and
 * change notifications so every BFF instance refreshes (who changed what goes to the audit log,
 * server/audit/). Adapters (embedded
 * SQLite, Redis) pass the same test suite. Version 0 means "nothing stored: the shipped
 * default"; the first save is version 1.
 */
export interface MenuStore {
  current<T>(doc: string): Promise<StoredVersion<T> | null>
  get<T>(doc: string, version: number): Promise<StoredVersion<T> | null>
  /** Newest first. */
  history<T>(doc: string, limit?: number): Promise<StoredVersion<T>[]>
  /** Saves `body` as the next version if the current one is `expectedVersion`, else throws VersionConflictError. */
  save<T>(doc: string, expectedVersion: number, body: T, author: Author, kind?: StoredVersion['kind'], restoredFrom?: number | null): Promise<StoredVersion<T>>
  /** Called with the document id whenever any instance saves a version. */
  subscribe(listener: (doc: string) => void): () => void
  ping(): Promise<void>
  close(): Promise<void>
}
