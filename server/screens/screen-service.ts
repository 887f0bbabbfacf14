import type { ScreenFile, ScreenOverlay } from '../../schemas/screen'
import type { Author, MenuStore, StoredVersion } from '../manifest/menu-store'
import { applyScreenOverlay } from './screen-overlay'
import type { ScreenSource } from './screen-routes'

const CACHE_MS = 2_000
const EMPTY: ScreenOverlay = { tables: {} }

export const screenDoc = (id: string) => `screen:${id}`

export interface ScreenState {
  id: string
  version: number
  overlay: ScreenOverlay
  author: Author | null
  updatedAt: number | null
}

/**
 * Screens as users get them: the shipped JSON with the stored overlay (column order, visibility,
 * headers) applied, cached and dropped when any instance stores a version.
 */
export class ScreenService implements ScreenSource {
  private readonly cache = new Map<string, { screen: ScreenFile; state: ScreenState; at: number }>()
  private readonly unsubscribe: () => void

  constructor(
    private readonly store: MenuStore,
    readonly shipped: Map<string, ScreenFile>,
    private readonly now: () => number = Date.now,
  ) {
    this.unsubscribe = store.subscribe((doc) => {
      if (doc.startsWith('screen:')) this.cache.delete(doc.slice(7))
    })
  }

  async screen(id: string): Promise<ScreenFile | undefined> {
    return (await this.load(id))?.screen
  }

  async state(id: string): Promise<ScreenState | undefined> {
    return (await this.load(id))?.state
  }

  async overlayAt(id: string, version: number): Promise<ScreenOverlay | null> {
    if (version === 0) return EMPTY
    return (await this.store.get<ScreenOverlay>(screenDoc(id), version))?.body ?? null
  }

  async save(id: string, expectedVersion: number, overlay: ScreenOverlay, author: Author, kind: StoredVersion['kind'] = 'edit', restoredFrom: number | null = null): Promise<ScreenState> {
    const saved = await this.store.save(screenDoc(id), expectedVersion, overlay, author, kind, restoredFrom)
    this.cache.delete(id)
    await this.store.audit({
      at: saved.createdAt,
      actor: author,
      action: kind === 'rollback' ? 'screen.rollback' : 'screen.save',
      doc: screenDoc(id),
      version: saved.version,
      details: kind === 'rollback' ? { restoredFrom } : { overlay },
    })
    return this.toState(id, saved)
  }

  close(): void {
    this.unsubscribe()
  }

  private async load(id: string): Promise<{ screen: ScreenFile; state: ScreenState } | undefined> {
    const base = this.shipped.get(id)
    if (!base) return undefined
    const hit = this.cache.get(id)
    if (hit && this.now() - hit.at < CACHE_MS) return hit
    const stored = await this.store.current<ScreenOverlay>(screenDoc(id))
    const entry = { screen: applyScreenOverlay(base, stored?.body), state: this.toState(id, stored), at: this.now() }
    this.cache.set(id, entry)
    return entry
  }

  private toState(id: string, stored: StoredVersion<ScreenOverlay> | null): ScreenState {
    return { id, version: stored?.version ?? 0, overlay: stored?.body ?? EMPTY, author: stored?.author ?? null, updatedAt: stored?.createdAt ?? null }
  }
}
