import type { Query, QueryClient } from '@tanstack/react-query'
import { readShows } from '../../schemas/catalogue/records'
import type { ChangeEvent } from '../../schemas/events'
import { loadCallIndex } from './call-catalogue'
import { NODE_KEY } from './query-keys'

/** A screen node's query (`nodeKey(id)`, endpoint, params): its endpoint and params. */
function nodeCall(query: Query): { endpoint: string; params: Record<string, unknown> } | null {
  const [root, , endpoint, params] = query.queryKey
  if (root !== NODE_KEY || typeof endpoint !== 'string' || !endpoint) return null
  return { endpoint, params: params !== null && typeof params === 'object' ? (params as Record<string, unknown>) : {} }
}

/** A record's «Historial» (the audit's entries of one record), read through the BFF. */
const RECORD_HISTORY = /^\/?bff\/audit\/record$/

/**
 * Refreshes the screen nodes showing a record that changed: lists of its kind and reads keyed by
 * it (the catalogue says which), and its history. Only those on screen are read again; the rest
 * are marked stale. Forms are not touched here: they decide for themselves (an edited one keeps
 * what the user typed).
 */
export async function refreshShown(client: QueryClient, change: ChangeEvent): Promise<void> {
  const index = await loadCallIndex()
  if (!index) return
  await client.invalidateQueries({
    predicate: (query) => {
      const node = nodeCall(query)
      if (!node) return false
      if (RECORD_HISTORY.test(node.endpoint)) return node.params.entity === change.entity && (change.id === undefined || String(node.params.id) === change.id)
      const match = index.find('GET', node.endpoint)
      return match !== null && readShows(match, node.params, change)
    },
  })
}

/** After a reconnection: every node on screen is read again (changes may have been missed). */
export async function refreshAllShown(client: QueryClient): Promise<void> {
  await client.invalidateQueries({ queryKey: [NODE_KEY] })
}
