import type { AuditEntry } from '../../schemas/audit'
import type { AdminAction, AuditOrigin, AuditWriter } from '../audit/audit-writer'
import type { Author, MenuStore, StoredVersion } from '../manifest/menu-store'
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

/** The document the audit log files a screen's entries under (the record `screen` of that id). */
export const screenDoc = (id: string) => `screen:${id}`

/** Render failures counted per version, at most (well above any failure threshold). */
const RENDER_ERRORS_READ = 500

/**
 * The studio's storage: the menu store's versioned documents (embedded SQLite, or Redis shared
 * by every replica with change notices over pub/sub), one document per concern: a screen's
 * versions, its release steps, and the index of screens with versions; and the audit log,
 * where its changes and its render failures are recorded.
 */
export class ScreenStore {
  constructor(
    private readonly docs: MenuStore,
    private readonly trail: AuditWriter,
  ) {}

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

  audit(origin: AuditOrigin, id: string, action: Omit<AdminAction, 'doc'>): Promise<void> {
    return this.trail.admin(origin, { ...action, doc: screenDoc(id) })
  }

  /** The render failures recorded for a screen since an instant (ms), newest first. */
  async renderErrors(id: string, since: number): Promise<AuditEntry[]> {
    const page = await this.trail.log.query({ record: { entity: 'screen', id }, kind: 'admin', action: 'screen.render-error', from: since }, { offset: 0, limit: RENDER_ERRORS_READ })
    return page.items
  }

  /** Called with the screen id whenever any instance stores a version or a release step of it. */
  subscribe(listener: (id: string, what: 'version' | 'release') => void): () => void {
    return this.docs.subscribe((doc) => {
      if (doc.startsWith('screen-version:')) listener(doc.slice('screen-version:'.length), 'version')
      else if (doc.startsWith('screen-release:')) listener(doc.slice('screen-release:'.length), 'release')
    })
  }
}
