/**
 * The types of the nodes of a screen (schemas/screen.ts), declared once: the schema's node union
 * is checked against this list at compile time, and the walker (schemas/screen-walk.ts), the
 * loader and the client's registry read it from here. Kept apart from the schema so the client
 * can read it without bundling TypeBox.
 */
export const NODE_TYPES = ['page', 'tabs', 'table', 'form', 'detail', 'action', 'markdown', 'links', 'tree', 'widget'] as const
export type NodeTypeName = (typeof NODE_TYPES)[number]

const KNOWN: ReadonlySet<string> = new Set(NODE_TYPES)

export function isNodeType(value: unknown): value is NodeTypeName {
  return typeof value === 'string' && KNOWN.has(value)
}
