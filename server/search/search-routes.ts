import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { CallIndex } from '../../schemas/catalogue/match'
import type { RouteDef } from '../../schemas/manifest'
import { SEARCH_GROUPS, SEARCH_MAX_LENGTH, SEARCH_UNAVAILABLE_HEADER, type SearchGroup, type SearchResult } from '../../schemas/search'
import type { CallChecker } from '../catalogue/call-check'
import { MESSAGES, sendError } from '../lib/errors'
import type { MenuSource, ScreenViews } from '../manifest/manifest-routes'
import { routeKey, routeView } from '../manifest/route-visibility'
import type { Session } from '../session/session-store'
import type { SessionGate } from '../session/session-gate'
import { viewerOf } from '../screens/screen-release'
import type { UpstreamClient } from '../upstream/upstream-client'
import { queryShape, type QueryShape } from './query-shape'
import { RECORD_LIMIT, RECORD_LOOKUPS, type RecordHit, type RecordLookup } from './record-lookups'
import { openableRoutes, screenMatches } from './screen-matches'

export interface SearchOptions {
  gate: SessionGate
  screens: ScreenViews
  menus: MenuSource
  catalogue: CallIndex
  checker: CallChecker
  upstream: Pick<UpstreamClient, 'call'>
  production: boolean
  comparadorUrl: string
  /** How long one lookup may take before its group is given up (the palette answers as you type). */
  lookupTimeoutMs?: number
}

export const LOOKUP_TIMEOUT_MS = 1200

/** Letters and marks, digits, blanks and the punctuation of names, codes and identifiers. */
const ALLOWED = /^[\p{L}\p{M}\p{N} .,'·/&()_@+-]*$/u

/** Why a query is refused, in Spanish; null when it is fine. */
export function queryProblem(q: unknown): string | null {
  if (q === undefined) return 'Falta el texto que buscar (q).'
  if (typeof q !== 'string') return 'El texto que buscar (q) debe darse una sola vez.'
  if (q.length > SEARCH_MAX_LENGTH) return `El texto que buscar no puede tener más de ${SEARCH_MAX_LENGTH} caracteres.`
  if (!ALLOWED.test(q)) return 'El texto que buscar solo puede tener letras, números, espacios y los signos . , \' · / & ( ) _ @ + -.'
  return null
}

/**
 * `GET /bff/search?q=&lang=`: the command palette's results for the signed-in user. Screens come
 * from the user's own route view (the manifest's rule); records from catalogued business calls
 * made in parallel with the user's token, each with a short timeout, only those the query's
 * shape can match and whose results the user may open. A lookup that fails leaves the others:
 * its groups are named in the `x-search-unavailable` header.
 */
export async function searchRoutes(app: FastifyInstance, opts: SearchOptions) {
  const calls = new Map(opts.catalogue.calls.map((c) => [c.id, c]))
  const timeoutMs = opts.lookupTimeoutMs ?? LOOKUP_TIMEOUT_MS

  app.get<{ Querystring: Record<string, unknown> }>('/bff/search', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const session = await opts.gate.current(request, reply)
    if (!session) return sendError(reply, 401, MESSAGES.unauthenticated)
    const problem = queryProblem(request.query.q)
    if (problem) return sendError(reply, 400, problem)
    const lang = request.query.lang === 'en' ? 'en' : 'es'
    const shape = queryShape(request.query.q as string)
    if (shape.text === '') return []

    const permissions = new Set(session.user.Permisos.map((p) => p.NombreNormalizado))
    const screens = await opts.screens.viewFor(viewerOf(request.brand.key, session.user))
    const menu = await opts.menus.menuFor(request.brand.key, screens.menu)
    const audience = { brand: request.brand.key, permissions, production: opts.production, comparadorUrl: opts.comparadorUrl }
    // Only routes the user may open: those of their route view whose permission they hold.
    const allowed = new Map<string, RouteDef>()
    for (const r of routeView(menu, screens.routes, audience).routes) if (!r.public && (!r.permission || permissions.has(r.permission))) allowed.set(routeKey(r.path), r)

    const results: SearchResult[] = screenMatches(openableRoutes([...allowed.values()], permissions), shape.text, lang)
    const failed = new Set<SearchGroup>()
    const asked = RECORD_LOOKUPS.filter((l) => mayAsk(l, shape, allowed, permissions))
    const answers = await Promise.all(asked.map((l) => lookup(l, shape, session, request)))
    answers.forEach((hits, i) => {
      if (hits === null) for (const g of asked[i]!.groups) failed.add(g)
      else for (const hit of hits) if (allowed.has(routeKey(hit.route))) results.push(resultOf(hit))
    })
    if (failed.size > 0) reply.header(SEARCH_UNAVAILABLE_HEADER, [...failed].join(','))
    return grouped(results)
  })

  function mayAsk(l: RecordLookup, shape: QueryShape, allowed: Map<string, RouteDef>, permissions: Set<string>): boolean {
    const call = calls.get(l.call)
    if (!call || (call.permission && !permissions.has(call.permission))) return false
    return l.opens.some((r) => allowed.has(routeKey(r))) && l.params(shape) !== null
  }

  /** The lookup's hits, or null when it failed (timeout, upstream error, a refused target). */
  async function lookup(l: RecordLookup, shape: QueryShape, session: Session, request: FastifyRequest): Promise<RecordHit[] | null> {
    const call = calls.get(l.call)!
    const target = opts.checker.checkTarget('GET', `/${call.path}?${new URLSearchParams(l.params(shape)!).toString()}`)
    if (!target.ok) {
      request.log.warn({ event: 'search_lookup_refused', call: l.call, status: target.status }, target.message)
      return null
    }
    try {
      const answer = await opts.upstream.call({ method: 'GET', path: target.checked.upstreamPath, token: session.token, brandDomain: request.brand.Domain, requestId: String(request.id), timeoutMs })
      if (answer.status === 200) return l.hits(answer.body, shape)
      if (l.emptyStatuses?.includes(answer.status)) return []
      request.log.warn({ event: 'search_lookup_failed', call: l.call, status: answer.status }, 'a palette lookup failed')
      return null
    } catch (err) {
      request.log.warn({ event: 'search_lookup_failed', call: l.call, status: (err as { statusCode?: number }).statusCode }, 'a palette lookup failed')
      return null
    }
  }
}

/** A hit's route filled in: path parameters encoded, then its query. */
function resultOf(hit: RecordHit): SearchResult {
  let path = hit.route.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (_m, name: string) => encodeURIComponent(hit.params?.[name] ?? ''))
  if (hit.query) path += `?${new URLSearchParams(hit.query).toString()}`
  const out: SearchResult = { kind: hit.kind, group: hit.group, label: hit.label, path }
  if (hit.detail) out.detail = hit.detail
  return out
}

/** In the palette's group order, each path once, a few records per group. */
function grouped(results: SearchResult[]): SearchResult[] {
  const seen = new Set<string>()
  const out: SearchResult[] = []
  for (const group of SEARCH_GROUPS) {
    let n = 0
    for (const r of results) {
      if (r.group !== group || seen.has(r.path)) continue
      if (group !== 'screens' && n >= RECORD_LIMIT) break
      seen.add(r.path)
      out.push(r)
      n++
    }
  }
  return out
}
