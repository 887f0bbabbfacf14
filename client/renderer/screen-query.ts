import type { QueryClient } from '@tanstack/react-query'
import type { ScreenFile, TableNode } from '../../schemas/screen'
import { nodesOf } from '../../schemas/screen-walk'
import { api } from '../api/client'
import { nodeKey } from '../api/query-keys'
import { fetchScreen } from '../api/render-errors'
import type { WidgetRegistry } from './node-renderer'
import { preloadScreenCode } from './registry'
import { PAGE_FRESH_MS, pagedParams, readState } from './table/table-state'
import { resolveParams } from './template'

/** How long a fetched screen is fresh: a click right after a hover uses the prefetched one. */
const SCREEN_FRESH_MS = 5_000

/** The query of a screen's JSON, handed over once the code that draws it has loaded too (one wait, no placeholder flashes). */
export function screenQuery(id: string, widgets: WidgetRegistry) {
  return {
    queryKey: ['screen', id],
    queryFn: async () => {
      const screen = await fetchScreen<ScreenFile>(id)
      // A chunk that fails to load fails again on render, where the error boundary deals with it.
      await preloadScreenCode(screen.root, widgets).catch(() => undefined)
      return screen
    },
    staleTime: SCREEN_FRESH_MS,
  }
}

/**
 * The query of a table's first page as the table asks for it on arrival (no URL state yet),
 * when it needs nothing from the route or a record: null for tables whose call is templated.
 */
export function firstPageQuery(node: TableNode) {
  const { endpoint, params, fromData } = node.source
  if (!endpoint || fromData || endpoint.includes('{') || Object.values(params ?? {}).some((v) => typeof v === 'string' && v.includes('{'))) return null
  // As the table resolves them (literal values only here): the same key, so the table finds the page.
  const base = resolveParams(params, {})
  const requestParams = node.source.paged !== false ? { ...base, ...pagedParams(node, readState(new URLSearchParams(), '', node)) } : base
  const path = `/${endpoint}`
  return {
    queryKey: [...nodeKey(node.id), path, requestParams],
    queryFn: () => api.get<unknown>(path, { params: requestParams }),
    staleTime: PAGE_FRESH_MS,
  }
}

/**
 * Prefetch on intent (a menu entry hovered or focused): the screen's JSON and its code, then
 * the first page of its main table, so a click paints rows without waiting on either. Failures
 * are left for the real load to report.
 */
export async function prefetchScreen(client: QueryClient, id: string, widgets: WidgetRegistry, { firstPage = true } = {}): Promise<void> {
  const options = screenQuery(id, widgets)
  await client.prefetchQuery(options)
  if (!firstPage) return
  const screen = client.getQueryData<ScreenFile>(options.queryKey)
  if (!screen) return
  const main = nodesOf(screen.root).find((n): n is TableNode => n.type === 'table' && !!n.urlState)
  const page = main && firstPageQuery(main)
  if (page) await client.prefetchQuery(page)
}
