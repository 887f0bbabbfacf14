import { EMPTY_MENU_OVERLAY, type MenuDefinition, type MenuOverlay } from '../../schemas/menu'
import type { MenuSource } from './manifest-routes'
import { describeMenuChanges, type MenuChange } from './menu-changes'
import { applyOverlay, diffMenu } from './menu-overlay'
import type { AuditOrigin, AuditWriter } from '../audit/audit-writer'
import type { Author, MenuStore, StoredVersion } from './menu-store'

/** A cached answer is trusted this long even without a change event (the safety net across instances). */
const CACHE_MS = 2_000

export const menuDoc = (brand: string) => `menu:${brand}`

export interface MenuState {
  brand: string
  /** 0 = nothing stored: the shipped menu. */
  version: number
  menu: MenuDefinition
  overlay: MenuOverlay
  author: Author | null
  updatedAt: number | null
}

/**
 * The menus users get: the shipped menu with the brand's stored overlay applied, cached per
 * brand and dropped as soon as any instance stores a version (store events), so a change
 * reaches every manifest within seconds without a restart.
 */
export class MenuService implements MenuSource {
  private readonly cache = new Map<string, { state: MenuState; at: number }>()
  private readonly unsubscribe: () => void

  constructor(
    private readonly store: MenuStore,
    private readonly audit: AuditWriter,
    private readonly shipped: MenuDefinition,
    private readonly now: () => number = Date.now,
  ) {
    this.unsubscribe = store.subscribe((doc) => {
      if (doc.startsWith('menu:')) this.cache.delete(doc.slice(5))
    })
  }

  async menuFor(brand: string, base?: MenuDefinition): Promise<MenuDefinition> {
    const state = await this.state(brand)
    // Another base (screens published from the studio add entries): the same edits on it.
    return base && base !== this.shipped ? applyOverlay(base, state.overlay) : state.menu
  }

  async state(brand: string): Promise<MenuState> {
    const hit = this.cache.get(brand)
    if (hit && this.now() - hit.at < CACHE_MS) return hit.state
    const stored = await this.store.current<MenuOverlay>(menuDoc(brand))
    const state = this.toState(brand, stored)
    this.cache.set(brand, { state, at: this.now() })
    return state
  }

  /** The menu as it was at a version (0 = shipped). */
  async at(brand: string, version: number): Promise<MenuDefinition | null> {
    if (version === 0) return structuredClone(this.shipped)
    const stored = await this.store.get<MenuOverlay>(menuDoc(brand), version)
    return stored ? applyOverlay(this.shipped, stored.body) : null
  }

  /** Stores an edited (already validated) menu as the next version; throws VersionConflictError. */
  async save(brand: string, expectedVersion: number, menu: MenuDefinition, origin: AuditOrigin): Promise<{ state: MenuState; changes: MenuChange[] }> {
    const before = await this.at(brand, expectedVersion)
    const saved = await this.store.save(menuDoc(brand), expectedVersion, diffMenu(this.shipped, menu), origin.author)
    this.cache.delete(brand)
    const state = this.toState(brand, saved)
    const changes = before ? describeMenuChanges(before, state.menu) : []
    await this.audit.admin(origin, { at: saved.createdAt, action: 'menu.save', doc: menuDoc(brand), version: saved.version, details: { changes: changes.map((c) => c.text) } })
    return { state, changes }
  }

  /** A new version with the content of an older one (itself recorded as a rollback). */
  async rollback(brand: string, target: number, expectedVersion: number, origin: AuditOrigin): Promise<{ state: MenuState; changes: MenuChange[] }> {
    const overlay = target === 0 ? EMPTY_MENU_OVERLAY : (await this.store.get<MenuOverlay>(menuDoc(brand), target))?.body
    if (!overlay) throw new Error(`No existe la versión ${target}.`)
    const before = await this.at(brand, expectedVersion)
    const saved = await this.store.save(menuDoc(brand), expectedVersion, overlay, origin.author, 'rollback', target)
    this.cache.delete(brand)
    const state = this.toState(brand, saved)
    const changes = before ? describeMenuChanges(before, state.menu) : []
    await this.audit.admin(origin, { at: saved.createdAt, action: 'menu.rollback', doc: menuDoc(brand), version: saved.version, details: { restoredFrom: target, changes: changes.map((c) => c.text) } })
    return { state, changes }
  }

  close(): void {
    this.unsubscribe()
  }

  private toState(brand: string, stored: StoredVersion<MenuOverlay> | null): MenuState {
    const overlay = stored?.body ?? EMPTY_MENU_OVERLAY
    return {
      brand,
      version: stored?.version ?? 0,
      menu: applyOverlay(this.shipped, overlay),
      overlay,
      author: stored?.author ?? null,
      updatedAt: stored?.createdAt ?? null,
    }
  }
}
