import type { AuditEntry, Author, MenuStore, StoredVersion } from '../manifest/menu-store'
import type { ReleaseEvent } from './screen-release'

/** One saved version of a screen: the whole file as the admin saved it and, for a shipped screen, the shipped file it was edited on. */
export interface StoredScreen {
  screen: Record<string, unknown>
  shipped: Record<string, unknown> | null
}

const versionsDoc = (id: string) => `screen-version:${id}`
const releaseDoc = (id: string) => `screen-release:${id}`
/** The screens with stored versions (made in the studio, or shipped and edited): one id per version. */
const INDEX_DOC = 'screen-index'
const LIMIT = 10_000

/** The document the audit trail files a screen's entries under (the menu manager's trail). */
export const screenDoc = (id: string) => `screen:${id}`

/**
 * The studio's storage: the menu store's versioned documents (embedded SQLite, or Redis shared
 * by every replica with change notices over pub/sub) and its audit trail, one document per
 * concern: a screen's versions, its release steps, and the index of screens with versions.
 */
export class ScreenStore {
  constructor(private readonly docs: MenuStore) {}

  latest(id: string): Promise<StoredVersion<StoredScreen> | null> {
    return this.docs.current<StoredScreen>(versionsDoc(id))
  }

  version(id: string, version: number): Promise<StoredVersion<StoredScreen> | null> {
    return this.docs.get<StoredScreen>(versionsDoc(id), version)
  }

  versions(id: string): Promise<StoredVersion<StoredScreen>[]> {
    return this.docs.history<StoredScreen>(versionsDoc(id), LIMIT)
  }

  /** Throws VersionConflictError when `expectedVersion` is not the latest. */
  saveVersion(id: string, expectedVersion: number, body: StoredScreen, author: Author): Promise<StoredVersion<StoredScreen>> {
    return this.docs.save(versionsDoc(id), expectedVersion, body, author)
  }

  lastRelease(id: string): Promise<StoredVersion<ReleaseEvent> | null> {
    return this.docs.current<ReleaseEvent>(releaseDoc(id))
  }

  /** Newest first. */
  releases(id: string): Promise<StoredVersion<ReleaseEvent>[]> {
    return this.docs.history<ReleaseEvent>(releaseDoc(id), LIMIT)
  }

  /** Throws VersionConflictError when another step was stored since `expectedStep`. */
  saveRelease(id: string, expectedStep: number, event: ReleaseEvent, author: Author): Promise<StoredVersion<ReleaseEvent>> {
    return this.docs.save(releaseDoc(id), expectedStep, event, author)
  }

  async indexed(): Promise<string[]> {
    return [...new Set((await this.docs.history<{ id: string }>(INDEX_DOC, LIMIT)).map((v) => v.body.id))]
  }

  /** Adds a screen to the index (once; a concurrent addition is retried). */
  async index(id: string, author: Author): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const all = await this.docs.history<{ id: string }>(INDEX_DOC, LIMIT)
      if (all.some((v) => v.body.id === id)) return
      try {
        await this.docs.save(INDEX_DOC, all[0]?.version ?? 0, { id }, author)
        return
      } catch (err) {
        if (attempt === 4) throw err
      }
    }
  }

  audit(entry: AuditEntry): Promise<void> {
    return this.docs.audit(entry)
  }

  auditTrail(id: string, limit?: number): Promise<AuditEntry[]> {
    return this.docs.auditTrail(screenDoc(id), limit)
  }

  /** Called with the screen id whenever any instance stores a version or a release step of it. */
  subscribe(listener: (id: string, what: 'version' | 'release') => void): () => void {
    return this.docs.subscribe((doc) => {
      if (doc.startsWith('screen-version:')) listener(doc.slice('screen-version:'.length), 'version')
      else if (doc.startsWith('screen-release:')) listener(doc.slice('screen-release:'.length), 'release')
    })
  }
}
