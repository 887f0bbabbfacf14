/** The root of every screen data node's query key. */
export const NODE_KEY = 'node'

/**
 * Query-key prefix of a screen's data node (a table, a detail, a tree), so whatever changes its
 * data (an action, a form, a widget saving a comparison, a live change event) can refresh it by
 * the node's id. The full key is `[...nodeKey(id), endpoint, params]`.
 */
export const nodeKey = (id: string) => [NODE_KEY, id] as const
