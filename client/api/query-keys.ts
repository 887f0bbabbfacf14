/**
 * Query-key prefix of a screen's data node (a table, a detail, a tree), so whatever changes its
 * data (an action, a form, a widget saving a comparison) can refresh it by the node's id.
 */
export const nodeKey = (id: string) => ['node', id] as const
