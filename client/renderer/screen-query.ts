import type { QueryClient } from '@tanstack/react-query'
import type { Manifest } from '../../schemas/manifest'
import type { DetailNode, ScreenFile, ScreenNode, TableNode } from '../../schemas/screen'
import { nodesOf, visitNodes } from '../../schemas/screen-walk'
import { MANIFEST_KEY } from '../api/manifest'
import { api } from '../api/client'
import { nodeKey } from '../api/query-keys'
import { fetchScreen } from '../api/render-errors'
import type { WidgetRegistry } from './node-renderer'
import { detailQuery } from './nodes/detail-query'
import { preloadScreenCode } from './registry'
import { PAGE_FRESH_MS, pagedParams, readState } from './table/table-state'
import { resolveParams, templateRefs, templateUser } from './template'

/** How long a fetched screen is fresh: a click right after a hover uses the prefetched one. */
const SCREEN_FRESH_MS = 5_000

/** What a screen's init step needs: the query cache to fill and who the user is. */
export interface ScreenInit {
  client: QueryClient
  manifest: Manifest
}

/** How long a screen waits for its widgets' data before it is drawn anyway (they then show their own loading). */
export const INIT_WAIT_MS = 1_500

/**
 * The query of a screen's JSON, handed over once the code that draws it has loaded too, and
 * the data of its widgets that have an init step (or INIT_WAIT_MS, whichever comes first):
 * one wait, no placeholder flashes, no parts arriving one by one.
 */
export function screenQuery(id: string, widgets: WidgetRegistry, init?: ScreenInit) {
  return {
    queryKey: ['screen', id],
    queryFn: async () => {
      const screen = await fetchScreen<ScreenFile>(id)
      await Promise.all([
        // A chunk that fails to load fails again on render, where the error boundary deals with it.
        preloadScreenCode(screen.root, widgets).catch(() => undefined),
        init && prefetchWidgetData(screen.root, widgets, init),
      ])
      return screen
    },
    staleTime: SCREEN_FRESH_MS,
  }
}

/** Runs the init step of every widget of the screen that has one, for at most INIT_WAIT_MS; failures are the widgets' to show. */
export function prefetchWidgetData(root: ScreenNode, widgets: WidgetRegistry, init: ScreenInit): Promise<unknown> {
  const steps: Promise<unknown>[] = []
  visitNodes(root, (node) => {
    const prefetch = node.type === 'widget' ? widgets[node.name]?.prefetchData : undefined
    if (prefetch) steps.push(prefetch(init.client, init.manifest).catch(() => undefined))
  })
  if (steps.length === 0) return Promise.resolve()
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise((resolve) => (timer = setTimeout(resolve, INIT_WAIT_MS)))
  return Promise.race([Promise.all(steps), deadline]).finally(() => clearTimeout(timer))
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

/** Whether a node's call is made of what a link's address gives (route parameters, the user): nothing drawn on the page. */
function fromAddressOnly(source: { endpoint?: string; params?: Record<string, unknown> }): boolean {
  const texts = [source.endpoint ?? '', ...Object.values(source.params ?? {}).map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? ''))]
  return texts.every((text) => templateRefs(text).every((expr) => /^(params|user)\./.test(expr)))
}

/**
 * Prefetch on intent (a menu entry or a row's link hovered or focused): the screen's JSON and
 * its code, then the first page of its main table and the record of its first detail (a
 * contract's, from the contract code in the link's address: its `params`), so a click
 * paints without waiting on any of them. Failures are left for the real load to report.
 */
export async function prefetchScreen(client: QueryClient, id: string, widgets: WidgetRegistry, { firstPage = true, params = {} }: { firstPage?: boolean; params?: Record<string, string | undefined> } = {}): Promise<void> {
  const manifest = client.getQueryData<Manifest>(MANIFEST_KEY)
  const options = screenQuery(id, widgets, manifest && { client, manifest })
  await client.prefetchQuery(options)
  if (!firstPage) return
  const screen = client.getQueryData<ScreenFile>(options.queryKey)
  if (!screen) return
  const nodes = nodesOf(screen.root)
  const main = nodes.find((n): n is TableNode => n.type === 'table' && !!n.urlState)
  const page = main && firstPageQuery(main)
  const detail = nodes.find((n): n is DetailNode => n.type === 'detail' && !!n.source.endpoint && !n.source.fromData)
  const record = detail && fromAddressOnly(detail.source) ? detailQuery(detail, { params, query: {}, user: templateUser(manifest) }).options : null
  await Promise.all([page && client.prefetchQuery(page), record && client.prefetchQuery(record)])
}
