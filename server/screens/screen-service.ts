import type { RouteDef } from '../../schemas/manifest'
import type { MenuDefinition, MenuFrame } from '../../schemas/menu'
import type { ScreenFile } from '../../schemas/screen'
import { HttpError } from '../lib/errors'
import { deriveManifest } from '../manifest/manifest-data'
import { VersionConflictError, type Author, type StoredVersion } from '../manifest/menu-store'
import { describeScreenChanges, type ScreenChange } from './screen-changes'
import { ScreenLoadError } from './screen-loader'
import { rebase } from './screen-rebase'
import { fallenBack, initialRelease, lastPublish, published, versionFor, visibleVersions, type Audience, type Release, type ReleaseEvent, type Viewer } from './screen-release'
import type { AuditOrigin } from '../audit/audit-writer'
import { type ScreenStore, type StoredScreen } from './screen-store'

/** A release table read is trusted this long even without a change notice (the safety net across instances). */
const CACHE_MS = 2_000
/** Who a fallback is recorded as. */
const SYSTEM: Author = { id: 0, name: 'Portal (fallos al pintar la pantalla)', email: 'sistema@portal' }

/** A save over a version newer than the one the admin started from. */
export class ScreenConflictError extends HttpError {
  constructor(
    message: string,
    readonly current: { version: number; author: Author | null; updatedAt: number | null },
    /** What the newer version changed, when the clash is over a save. */
    readonly changes: ScreenChange[] = [],
  ) {
    super(409, message)
  }
}

/** The screens, routes and default menu one user sees. */
export interface ScreenView {
  routes: RouteDef[]
  /** The default menu derived from the screens this user sees (the menu manager's overlay goes on top). */
  menu: MenuDefinition
}

export interface ScreenServiceOptions {
  shipped: ReadonlyMap<string, ScreenFile>
  store: ScreenStore
  /** The manifest the shipped screens give (what a user sees while nothing is published). */
  shippedView: ScreenView
  frame: MenuFrame
  brands: ReadonlySet<string>
  /** Every check a shipped screen passes (screen-loader.ts checkScreen), given where links point. */
  check: (raw: Record<string, unknown>, where: string, routesOf: ReadonlyMap<string, string[]>) => ScreenFile
  /** Brings a stored screen to the current schema version (upgradeScreen). */
  upgrade: (raw: unknown, where: string) => unknown
  /** Distinct users whose browser fails to render a version before everyone falls back. */
  failureThreshold: number
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void }
  now?: () => number
}

const where = (id: string, version: number) => `pantalla «${id}», versión ${version}`

/**
 * The screen studio: versions of every screen (an edit of a shipped one is an overlay on the
 * shipped file), drafts nobody sees, staged publication per brand or user group, rollback,
 * the fallback when a version breaks in browsers, and what each user sees of it all.
 */
export class ScreenService {
  private readonly shipped: ReadonlyMap<string, ScreenFile>
  private readonly store: ScreenStore
  /** Stored versions as served: upgraded, rebased on today's shipped file and checked. Versions never change. */
  private readonly resolved = new Map<string, Promise<ScreenFile | null>>()
  private releaseTable: { at: number; table: Promise<Map<string, Release>> } | null = null
  private readonly views = new Map<string, ScreenView>()
  private readonly now: () => number
  private readonly unsubscribe: () => void

  constructor(private readonly opts: ScreenServiceOptions) {
    this.shipped = opts.shipped
    this.store = opts.store
    this.now = opts.now ?? Date.now
    this.unsubscribe = this.store.subscribe((_id, what) => {
      if (what === 'release') this.releaseTable = null
    })
  }

  close(): void {
    this.unsubscribe()
  }

  isShipped(id: string): boolean {
    return this.shipped.has(id)
  }

  /** Every screen: shipped and made in the studio. */
  async ids(): Promise<string[]> {
    return [...new Set([...this.shipped.keys(), ...(await this.store.indexed())])]
  }

  async exists(id: string): Promise<boolean> {
    return this.shipped.has(id) || (await this.store.latest(id)) !== null
  }

  /** A version as users get it (0: the shipped file), or null when there is no such version. */
  versionOf(id: string, version: number): Promise<ScreenFile | null> {
    if (version === 0) return Promise.resolve(this.shipped.get(id) ?? null)
    const key = `${id}@${version}`
    let hit = this.resolved.get(key)
    if (!hit) {
      hit = this.store.version(id, version).then(async (stored) => {
        if (!stored) return null
        try {
          return await this.served(id, version, stored.body)
        } catch (err) {
          // A stored version this server cannot read (a newer schema, a migration missing): as if it did not exist, and said.
          if (!(err instanceof ScreenLoadError)) throw err
          this.opts.log.error({ event: 'screen_version_unreadable', screen: id, version, err: err.message }, 'stored screen version cannot be read')
          return null
        }
      })
      hit.catch(() => this.resolved.delete(key))
      this.resolved.set(key, hit)
    }
    return hit
  }

  /** The newest version number (0: a shipped screen never edited; null: no such screen). */
  async latestVersion(id: string): Promise<number | null> {
    const stored = await this.store.latest(id)
    return stored?.version ?? (this.shipped.has(id) ? 0 : null)
  }

  async release(id: string): Promise<Release> {
    return (await this.store.lastRelease(id))?.body.after ?? initialRelease(this.shipped.has(id))
  }

  /** The version of a screen this user sees, or undefined when it does not exist for them. */
  async screenFor(id: string, viewer: Viewer): Promise<{ screen: ScreenFile; version: number } | undefined> {
    const release = (await this.releases()).get(id) ?? (this.shipped.has(id) ? initialRelease(true) : null)
    const version = release ? versionFor(release, viewer) : null
    if (version === null) return undefined
    const screen = await this.versionOf(id, version)
    if (screen) return { screen, version }
    // An unreadable version of a shipped screen: the shipped file rather than nothing.
    const shipped = this.shipped.get(id)
    return shipped ? { screen: shipped, version: 0 } : undefined
  }

  /** The routes and default menu derived from the screens this user sees. */
  async viewFor(viewer: Viewer): Promise<ScreenView> {
    const changed = new Map<string, number | null>()
    for (const [id, release] of await this.releases()) {
      const version = versionFor(release, viewer)
      if (version !== (this.shipped.has(id) ? 0 : null)) changed.set(id, version)
    }
    if (changed.size === 0) return this.opts.shippedView
    const key = [...changed].map(([id, v]) => `${id}@${v}`).sort().join(',')
    const hit = this.views.get(key)
    if (hit) return hit
    const screens = new Map(this.shipped)
    for (const [id, version] of changed) {
      const screen = version === null ? null : await this.versionOf(id, version)
      if (screen) screens.set(id, screen)
      // Not published to this user, or unreadable: a shipped screen keeps its shipped file, as screenFor serves it.
      else if (!this.shipped.has(id)) screens.delete(id)
    }
    let view: ScreenView
    try {
      view = deriveManifest(screens, this.opts.frame, this.opts.brands)
    } catch (err) {
      // Publication checks the manifest first; this is two publications that clash between them.
      this.opts.log.error({ event: 'screen_manifest_failed', screens: key, err }, 'published screens do not derive a manifest; serving the shipped one')
      view = this.opts.shippedView
    }
    if (this.views.size > 200) this.views.clear()
    this.views.set(key, view)
    return view
  }

  /** A new screen, as a draft nobody sees (version 1). */
  async create(raw: unknown, origin: AuditOrigin): Promise<{ id: string; version: number }> {
    const { author } = origin
    const screen = await this.checked(raw, null)
    if (await this.exists(screen.id)) throw new ScreenConflictError(`Ya existe una pantalla «${screen.id}».`, await this.head(screen.id))
    let saved: StoredVersion<StoredScreen>
    try {
      saved = await this.store.saveVersion(screen.id, 0, { screen: screen as unknown as Record<string, unknown>, shipped: null }, author)
    } catch (err) {
      if (err instanceof VersionConflictError) throw new ScreenConflictError(`Ya existe una pantalla «${screen.id}».`, await this.head(screen.id))
      throw err
    }
    await this.store.index(screen.id, author)
    await this.store.audit(origin, screen.id, { at: saved.createdAt, action: 'screen.create', version: saved.version, details: {} })
    return { id: screen.id, version: saved.version }
  }

  /** A new draft version of an existing screen; `expectedVersion` given, refused when a newer one exists. */
  async save(id: string, raw: unknown, expectedVersion: number | undefined, origin: AuditOrigin): Promise<{ version: number; changes: ScreenChange[] }> {
    const { author } = origin
    const latest = await this.latestVersion(id)
    if (latest === null) throw new HttpError(404, `No existe la pantalla «${id}».`)
    const screen = await this.checked(raw, id)
    const base = expectedVersion ?? latest
    if (base !== latest) throw await this.conflict(id, base)
    const before = await this.versionOf(id, latest)
    const shipped = this.shipped.get(id)
    let saved: StoredVersion<StoredScreen>
    try {
      saved = await this.store.saveVersion(id, base, { screen: screen as unknown as Record<string, unknown>, shipped: (shipped as unknown as Record<string, unknown>) ?? null }, author)
    } catch (err) {
      if (err instanceof VersionConflictError) throw await this.conflict(id, base)
      throw err
    }
    if (saved.version === 1) await this.store.index(id, author)
    const changes = describeScreenChanges(before, screen)
    await this.store.audit(origin, id, { at: saved.createdAt, action: 'screen.save', version: saved.version, details: { changes: changes.map((c) => c.text) } })
    return { version: saved.version, changes }
  }

  /** Makes a version (default: the latest) what its audience sees (default: everyone). */
  async publish(id: string, version: number | undefined, audience: Audience | null, origin: AuditOrigin): Promise<Release> {
    const latest = await this.latestVersion(id)
    if (latest === null) throw new HttpError(404, `No existe la pantalla «${id}».`)
    const target = version ?? latest
    if (!(await this.versionOf(id, target))) throw new HttpError(404, `No existe la versión ${target} de la pantalla «${id}».`)
    const unknown = audience?.brands.find((b) => !this.opts.brands.has(b))
    if (unknown) throw new HttpError(400, `La marca «${unknown}» no existe (marcas: ${[...this.opts.brands].join(', ')}).`)
    return this.step(id, origin, async (release) => {
      const after = published(release, target, audience)
      await this.checkManifest(id, after)
      return { action: 'publish', version: target, audience, before: release, after }
    })
  }

  /** Back to a version for everyone; without one, undoes the last publication (the first one undone: nobody sees the screen). */
  async rollback(id: string, version: number | undefined, origin: AuditOrigin): Promise<Release> {
    if (!(await this.exists(id))) throw new HttpError(404, `No existe la pantalla «${id}».`)
    if (version !== undefined && !(await this.versionOf(id, version))) throw new HttpError(404, `No existe la versión ${version} de la pantalla «${id}».`)
    const history = version === undefined ? await this.store.releases(id) : []
    return this.step(id, origin, async (release) => {
      if (version !== undefined) {
        const after: Release = { everyone: version, staged: null }
        await this.checkManifest(id, after)
        return { action: 'rollback', version, audience: null, before: release, after }
      }
      const last = lastPublish(history)
      if (!last) throw new HttpError(400, `La pantalla «${id}» no tiene ninguna publicación que deshacer.`)
      return { action: 'rollback', version: null, audience: null, before: release, after: last.event.before, undid: last.step }
    })
  }

  /**
   * A user's browser failed to render the version it was served. Counted once per user and
   * version (in the audit trail, so every replica counts the same); at the threshold, the
   * version's audience falls back to the last good version and the admins see why.
   */
  async renderFailed(id: string, version: number, viewer: Viewer, origin: AuditOrigin, message: string | undefined): Promise<{ counted: boolean; fallback: boolean }> {
    const user = origin.author
    const served = await this.screenFor(id, viewer)
    if (!served || served.version !== version || version === 0) return { counted: false, fallback: false }
    const since = (await this.store.lastRelease(id))?.createdAt ?? 0
    const reports = (await this.store.renderErrors(id, since)).filter((e) => e.version === version)
    const users = new Set(reports.map((e) => e.actor?.id))
    if (!users.has(user.id)) {
      await this.store.audit(origin, id, { at: this.now(), action: 'screen.render-error', version, details: { message: message ?? null } })
      users.add(user.id)
    }
    if (users.size < this.opts.failureThreshold) return { counted: true, fallback: false }
    try {
      const releases = (await this.store.releases(id)).map((r) => r.body)
      const after = await this.step(id, { ...origin, author: SYSTEM }, async (release) => ({
        action: 'fallback',
        version,
        audience: null,
        before: release,
        after: fallenBack(release, version, releases, initialRelease(this.shipped.has(id))),
        reason: `Falló al pintarse en el navegador de ${users.size} usuarios${message ? ` (${message.slice(0, 200)})` : ''}.`,
      }))
      this.opts.log.warn({ event: 'screen_fallback', screen: id, failed: version, now: after }, 'screen version failed to render: fell back to the last good version')
      return { counted: true, fallback: true }
    } catch (err) {
      // Another replica fell back first.
      if (err instanceof ScreenConflictError) return { counted: true, fallback: false }
      throw err
    }
  }

  /** What the studio shows of a screen: its latest version (or `at`), who sees what, and what a release changed underneath an edit. */
  async state(id: string, at?: number) {
    const latest = await this.store.latest(id)
    if (!latest && !this.shipped.has(id)) return undefined
    const version = at ?? latest?.version ?? 0
    const screen = await this.versionOf(id, version)
    const last = await this.store.lastRelease(id)
    const release = last?.body.after ?? initialRelease(this.shipped.has(id))
    const shipped = this.shipped.get(id) ?? null
    const editedOn = latest?.body.shipped ? (this.opts.upgrade(structuredClone(latest.body.shipped), where(id, version)) as ScreenFile) : null
    return {
      id,
      screen,
      version,
      audience: release,
      status: statusOf(release, last?.body ?? null, version),
      shipped: shipped !== null,
      author: latest?.author ?? null,
      updatedAt: latest?.createdAt ?? null,
      /** The last fallback, while it is the newest release step: admins are told. */
      fallback: last?.body.action === 'fallback' ? { version: last.body.version, at: last.createdAt, reason: last.body.reason ?? null } : null,
      /** A release changed the shipped file since this edit was made on it. */
      underneath: editedOn && shipped && JSON.stringify(editedOn) !== JSON.stringify(shipped) ? describeScreenChanges(editedOn, shipped) : [],
    }
  }

  async history(id: string) {
    const versions = await this.store.versions(id)
    const out = []
    for (const v of versions) {
      const before = v.version > 1 || this.shipped.has(id) ? await this.versionOf(id, v.version - 1) : null
      out.push({ version: v.version, author: v.author, createdAt: v.createdAt, kind: 'edit' as const, changes: describeScreenChanges(before, await this.versionOf(id, v.version)) })
    }
    if (this.shipped.has(id)) out.push({ version: 0, author: null, createdAt: null, kind: 'shipped' as const, changes: [] })
    const releases = (await this.store.releases(id)).map((r) => ({
      step: r.version,
      action: r.body.action,
      version: r.body.version,
      audience: r.body.audience,
      before: r.body.before,
      after: r.body.after,
      undid: r.body.undid ?? null,
      reason: r.body.reason ?? null,
      author: r.author,
      at: r.createdAt,
    }))
    return { versions: out, releases }
  }

  async diff(id: string, from: number, to: number): Promise<ScreenChange[] | null> {
    const [a, b] = await Promise.all([this.versionOf(id, from), this.versionOf(id, to)])
    return a && b ? describeScreenChanges(a, b) : null
  }

  /** Each screen's release, for every screen with stored versions (cached briefly, dropped on any instance's change). */
  private releases(): Promise<Map<string, Release>> {
    if (this.releaseTable && this.now() - this.releaseTable.at < CACHE_MS) return this.releaseTable.table
    const table = (async () => {
      const ids = await this.store.indexed()
      const releases = await Promise.all(ids.map(async (id) => [id, await this.release(id)] as const))
      return new Map(releases)
    })()
    table.catch(() => (this.releaseTable = null))
    this.releaseTable = { at: this.now(), table }
    return table
  }

  /** Stores one release step built from the current release; a step stored meanwhile by someone else is a 409. */
  private async step(id: string, origin: AuditOrigin, build: (release: Release) => Promise<ReleaseEvent>): Promise<Release> {
    const { author } = origin
    const last = await this.store.lastRelease(id)
    const event = await build(last?.body.after ?? initialRelease(this.shipped.has(id)))
    let saved: StoredVersion<ReleaseEvent>
    try {
      saved = await this.store.saveRelease(id, last?.version ?? 0, event, author)
    } catch (err) {
      if (err instanceof VersionConflictError) throw new ScreenConflictError('La publicación de la pantalla ha cambiado mientras tanto. Revisa su estado y vuelve a intentarlo.', await this.head(id))
      throw err
    }
    this.releaseTable = null
    await this.store.audit(origin, id, {
      at: saved.createdAt,
      action: `screen.${event.action}`,
      version: event.version,
      details: { audience: event.audience, after: event.after, ...(event.undid !== undefined ? { undid: event.undid } : {}), ...(event.reason ? { reason: event.reason } : {}) },
    })
    return event.after
  }

  /** The release would give a manifest for every version it shows: no clashing route or menu key with what is published. */
  private async checkManifest(id: string, release: Release): Promise<void> {
    const others = new Map(this.shipped)
    for (const [other, r] of await this.releases()) {
      if (other === id) continue
      const v = r.everyone ?? r.staged?.version ?? null
      const screen = v === null ? null : await this.versionOf(other, v)
      if (screen) others.set(other, screen)
      else others.delete(other)
    }
    for (const v of visibleVersions(release)) {
      const screens = new Map(others)
      const screen = await this.versionOf(id, v)
      if (screen) screens.set(id, screen)
      try {
        deriveManifest(screens, this.opts.frame, this.opts.brands)
      } catch (err) {
        throw new HttpError(400, `No se puede publicar la versión ${v}: ${(err as Error).message}`)
      }
    }
  }

  /** A screen file the studio may store: every shipped screen's checks; its id the route's. */
  /** A screen as the studio's preview draws it: every check of a save, nothing stored. */
  preview(raw: unknown): Promise<ScreenFile> {
    return this.checked(raw, null)
  }

  private async checked(raw: unknown, id: string | null): Promise<ScreenFile> {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new HttpError(400, 'La pantalla no es válida: /screen: debe ser un objeto JSON.')
    const copy = structuredClone(raw) as Record<string, unknown>
    if (id !== null && copy.id !== id) throw new HttpError(400, `La pantalla no es válida: /screen/id: debe ser «${id}», el de la pantalla que editas.`)
    try {
      return this.opts.check(copy, 'La pantalla no es válida', await this.routesOf())
    } catch (err) {
      // Every check names the JSON path right after `where` (some with a colon of their own).
      if (err instanceof ScreenLoadError) throw new HttpError(400, err.message.replace(/^La pantalla no es válida(?=\/)/, 'La pantalla no es válida: '))
      throw err
    }
  }

  /** Each screen's route paths (shipped, and the studio's latest versions), for links naming a screen. */
  private async routesOf(): Promise<Map<string, string[]>> {
    const routesOf = new Map<string, string[]>()
    for (const [id, s] of this.shipped) if (s.routes) routesOf.set(id, s.routes.map((r) => r.path))
    for (const id of await this.store.indexed()) {
      const latest = await this.store.latest(id)
      const routes = latest?.body.screen.routes
      if (Array.isArray(routes)) routesOf.set(id, routes.map((r: { path: string }) => r.path))
    }
    return routesOf
  }

  /** A stored version as served: upgraded to today's schema, rebased on today's shipped file when it is an edit of one. */
  private async served(id: string, version: number, stored: StoredScreen): Promise<ScreenFile> {
    const at = where(id, version)
    const saved = this.opts.upgrade(structuredClone(stored.screen), at) as Record<string, unknown>
    const shipped = this.shipped.get(id)
    if (!shipped || !stored.shipped) return this.opts.check(saved, at, await this.routesOf())
    const editedOn = this.opts.upgrade(structuredClone(stored.shipped), at)
    const merged = rebase(editedOn, saved, shipped) as Record<string, unknown>
    try {
      return this.opts.check(structuredClone(merged), at, await this.routesOf())
    } catch (err) {
      // The release and the edit do not fit together: the edit as it was saved, and the admins see what changed underneath.
      this.opts.log.warn({ event: 'screen_rebase_failed', screen: id, version, err: (err as Error).message }, 'edit does not fit the new shipped screen; served as saved')
      return this.opts.check(saved, at, await this.routesOf())
    }
  }

  private async head(id: string) {
    const latest = await this.store.latest(id)
    return { version: latest?.version ?? 0, author: latest?.author ?? null, updatedAt: latest?.createdAt ?? null }
  }

  private async conflict(id: string, from: number): Promise<ScreenConflictError> {
    const current = await this.head(id)
    const changes = describeScreenChanges(await this.versionOf(id, from), await this.versionOf(id, current.version))
    return new ScreenConflictError(
      `La pantalla ha cambiado mientras la editabas: ${current.author?.name ?? 'otra persona'} guardó la versión ${current.version}. Revisa sus cambios antes de guardar los tuyos.`,
      current,
      changes,
    )
  }
}

function statusOf(release: Release, last: ReleaseEvent | null, latest: number): 'draft' | 'published' | 'staged' | 'fallback' | 'withdrawn' {
  if (last?.action === 'fallback') return 'fallback'
  if (release.staged) return 'staged'
  if (release.everyone === null) return last ? 'withdrawn' : 'draft'
  return release.everyone === latest ? 'published' : 'draft'
}
