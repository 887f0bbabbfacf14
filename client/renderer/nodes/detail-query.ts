import type { DetailNode } from '../../../schemas/screen'
import { api } from '../../api/client'
import { nodeKey } from '../../api/query-keys'
import { PAGE_FRESH_MS } from '../table/table-state'
import { fill, resolveParams, type TemplateContext } from '../template'

/**
 * The query of a detail node's record: what the node asks for, and what a link's intent
 * prefetches (screen-query.ts) under the same key, so the click that follows draws it at once.
 */
export function detailQuery(node: DetailNode, ctx: TemplateContext) {
  const endpoint = node.source.endpoint ? `/${fill(node.source.endpoint, ctx, true)}` : ''
  const params = resolveParams(node.source.params, ctx)
  const key = node.id ?? (endpoint || `data:${node.source.fromData}`)
  return {
    key,
    endpoint,
    params,
    options: {
      queryKey: [...nodeKey(key), endpoint, params],
      queryFn: () => api.get<unknown>(endpoint, { params }),
      // A record prefetched on intent is used, not fetched again, when the click follows.
      staleTime: PAGE_FRESH_MS,
    },
  }
}
