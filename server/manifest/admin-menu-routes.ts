import type { FastifyInstance, FastifyReply } from 'fastify'
import { BrandQuery, DiffQuery, PreviewBody, RollbackBody, SaveMenuBody } from '../../schemas/admin'
import type { RouteDef } from '../../schemas/manifest'
import { GatingPermissions } from '../../schemas/session-user'
import type { BrandRegistry } from '../brand/brand-registry'
import { sendError } from '../lib/errors'
import type { UpstreamClient } from '../upstream/upstream-client'
import { originOf } from '../audit/audit-writer'
import { requirePermission } from '../session/require-permission'
import type { SessionGate } from '../session/session-gate'
import type { MenuDefinition } from '../../schemas/menu'
import { describeMenuChanges } from './menu-changes'
import { applyOverlay, diffMenu } from './menu-overlay'
import { resolveMenu } from './menu-filter'
import { MenuRuleError, validateMenu } from './menu-rules'
import { menuDoc, type MenuService } from './menu-service'
import { VersionConflictError, type MenuStore } from './menu-store'
import type { Permission } from '../../schemas/business/access'

export interface AdminMenuOptions {
  gate: SessionGate
  menus: MenuService
  store: MenuStore
  routes: RouteDef[]
  brands: BrandRegistry
  upstream: UpstreamClient
  comparadorUrl: string
}

/** Permission names for the pickers and the rules: the upstream's list, else the ones the UI knows. */
async function knownPermissions(opts: AdminMenuOptions, token: string, brandDomain: string, requestId: string): Promise<{ codes: Set<string>; list: { code: string; name: string }[] }> {
  const fallback = [...GatingPermissions].map((code) => ({ code, name: code }))
  try {
    const answer = await opts.upstream.call<Permission[]>({ method: 'GET', path: '/api/permission', token, brandDomain, requestId })
    if (answer.status === 200 && Array.isArray(answer.body)) {
      const list = answer.body.map((p) => ({ code: p.NombreNormalizado, name: p.Nombre }))
      return { codes: new Set(list.map((p) => p.code)), list }
    }
  } catch {
    // the upstream is down: the gating permissions still allow safe edits
  }
  return { codes: new Set(fallback.map((p) => p.code)), list: fallback }
}

/**
 * The menu manager's endpoints (GESTORACCESS): read the current version, save a new one
 * (validated, with optimistic concurrency), history with readable changes, diff between any two
 * versions, preview as a permission set and environment would see it, roll back (each change
 * goes to the audit log, served by server/audit/audit-routes.ts).
 */
export async function adminMenuRoutes(app: FastifyInstance, opts: AdminMenuOptions) {
  // Every route of this plugin, checked before its body is read (see requirePermission).
  app.addHook('onRequest', requirePermission(opts.gate, 'GESTORACCESS'))
  const brandOf = (key: string | undefined, reply: FastifyReply) => {
    const brand = key ? opts.brands.byKey(key) : opts.brands.default
    if (!brand) {
      sendError(reply, 400, `Marca desconocida: «${key}».`)
      return null
    }
    return brand
  }

  app.get<{ Querystring: BrandQuery }>('/bff/admin/menu', { schema: { querystring: BrandQuery } }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const brand = brandOf(request.query.brand, reply)
    if (!brand) return
    const state = await opts.menus.state(brand.key)
    const session = request.sessionMemo!
    const permissions = await knownPermissions(opts, session.token, request.brand.Domain, String(request.id))
    return {
      brand: brand.key,
      version: state.version,
      menu: state.menu,
      author: state.author,
      updatedAt: state.updatedAt,
      // What the editor offers to pick from.
      routes: opts.routes.filter((r) => !r.public && !r.path.includes('{')).map((r) => ({ path: r.path, title: r.title, permission: r.permission ?? null })),
      permissions: permissions.list,
      brands: opts.brands.all.map((b) => ({ key: b.key, name: b.Name })),
    }
  })

  app.put<{ Querystring: BrandQuery; Body: SaveMenuBody }>(
    '/bff/admin/menu',
    { schema: { querystring: BrandQuery, body: SaveMenuBody } },
    async (request, reply) => {
      const brand = brandOf(request.query.brand, reply)
      if (!brand) return
      const session = request.sessionMemo!
      const { codes } = await knownPermissions(opts, session.token, request.brand.Domain, String(request.id))
      let menu
      try {
        menu = validateMenu(request.body.menu, { routes: opts.routes, permissions: codes, brands: new Set(opts.brands.all.map((b) => b.key)) })
      } catch (err) {
        if (err instanceof MenuRuleError) {
          request.log.info({ event: 'menu_refused', brand: brand.key, reason: err.message }, 'menu save refused')
          return sendError(reply, 400, err.message)
        }
        throw err
      }
      try {
        const { state, changes } = await opts.menus.save(brand.key, request.body.version, menu, originOf(request))
        request.log.info({ event: 'menu_saved', brand: brand.key, version: state.version, userId: session.userId }, 'menu saved')
        return { brand: brand.key, version: state.version, menu: state.menu, changes }
      } catch (err) {
        if (err instanceof VersionConflictError) return conflict(reply, brand.key, request.body.version, menu)
        throw err
      }
    },
  )

  /**
   * 409 with who saved meanwhile and what they changed since the version the editor started
   * from; for a refused save, also the admin's draft replayed on top of the current version
   * (`merged`, not stored) so they can review both sets of changes together and save again.
   */
  async function conflict(reply: FastifyReply, brand: string, from: number, draft?: MenuDefinition) {
    const current = await opts.menus.state(brand)
    const base = await opts.menus.at(brand, from)
    const changes = base ? describeMenuChanges(base, current.menu) : []
    const merged = draft && base ? applyOverlay(current.menu, diffMenu(base, draft)) : null
    return reply.code(409).send({
      merged,
      statusCode: 409,
      error: 'Conflict',
      message: `El menú ha cambiado mientras lo editabas: ${current.author?.name ?? 'otra persona'} guardó la versión ${current.version}. Revisa sus cambios antes de guardar los tuyos.`,
      current: { version: current.version, author: current.author, updatedAt: current.updatedAt, menu: current.menu },
      changes,
    })
  }

  app.get<{ Querystring: BrandQuery }>('/bff/admin/menu/history', { schema: { querystring: BrandQuery } }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const brand = brandOf(request.query.brand, reply)
    if (!brand) return
    const versions = await opts.store.history<unknown>(menuDoc(brand.key))
    const out = []
    for (const v of versions) {
      const before = await opts.menus.at(brand.key, v.version - 1)
      const after = await opts.menus.at(brand.key, v.version)
      out.push({
        version: v.version,
        author: v.author,
        createdAt: v.createdAt,
        kind: v.kind,
        restoredFrom: v.restoredFrom,
        changes: before && after ? describeMenuChanges(before, after) : [],
      })
    }
    out.push({ version: 0, author: null, createdAt: null, kind: 'shipped', restoredFrom: null, changes: [] })
    return out
  })

  app.get<{ Querystring: DiffQuery }>('/bff/admin/menu/diff', { schema: { querystring: DiffQuery } }, async (request, reply) => {
    const brand = brandOf(request.query.brand, reply)
    if (!brand) return
    const from = await opts.menus.at(brand.key, request.query.from)
    const to = await opts.menus.at(brand.key, request.query.to)
    if (!from || !to) return sendError(reply, 404, 'No existe alguna de las versiones pedidas.')
    return { from: request.query.from, to: request.query.to, changes: describeMenuChanges(from, to) }
  })

  app.post<{ Querystring: BrandQuery; Body: PreviewBody }>(
    '/bff/admin/menu/preview',
    { schema: { querystring: BrandQuery, body: PreviewBody } },
    async (request, reply) => {
      const brand = brandOf(request.query.brand, reply)
      if (!brand) return
      const current = await opts.menus.state(brand.key)
      return {
        // What the draft changes against the stored version, before anything is saved.
        changes: describeMenuChanges(current.menu, request.body.menu),
        menu: resolveMenu(request.body.menu, {
          brand: brand.key,
          permissions: new Set(request.body.permissions),
          production: request.body.production,
          comparadorUrl: opts.comparadorUrl,
        }),
      }
    },
  )

  app.post<{ Querystring: BrandQuery; Body: RollbackBody }>(
    '/bff/admin/menu/rollback',
    { schema: { querystring: BrandQuery, body: RollbackBody } },
    async (request, reply) => {
      const brand = brandOf(request.query.brand, reply)
      if (!brand) return
      const target = await opts.menus.at(brand.key, request.body.version)
      if (!target) return sendError(reply, 404, `No existe la versión ${request.body.version} del menú.`)
      try {
        const { state, changes } = await opts.menus.rollback(brand.key, request.body.version, request.body.expectedVersion, originOf(request))
        request.log.info({ event: 'menu_rolled_back', brand: brand.key, version: state.version, restoredFrom: request.body.version }, 'menu rolled back')
        return { brand: brand.key, version: state.version, menu: state.menu, changes }
      } catch (err) {
        if (err instanceof VersionConflictError) return conflict(reply, brand.key, request.body.expectedVersion)
        throw err
      }
    },
  )
}
