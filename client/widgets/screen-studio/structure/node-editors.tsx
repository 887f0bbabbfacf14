import { createElement, type ComponentType, type ReactElement } from 'react'
import type { NodeType, ScreenNode } from '../../../../schemas/screen'
import { DetailEditor } from './DetailEditor'
import { FormEditor } from './FormEditor'
import { PageEditor } from './PageEditor'
import { TableEditor } from './TableEditor'

/** What every structured node editor takes: its node, and where to send the changed node. */
export interface NodeEditorProps<T extends ScreenNode = ScreenNode> {
  node: T
  onChange: (next: T) => void
}

type NodeEditors = { [K in NodeType]?: ComponentType<NodeEditorProps<Extract<ScreenNode, { type: K }>>> }

/**
 * The structured editor of each node type; a type without one is edited as node JSON, checked
 * against the whole screen. One registry, so a new editor is one line here.
 */
export const NODE_EDITORS: NodeEditors = {
  page: PageEditor,
  table: TableEditor,
  detail: DetailEditor,
  form: ({ node, onChange }) => createElement(FormEditor, { form: node, onChange }),
}

/** The structured editor of a node, drawn for `key` (a node's pointer: another node starts afresh); null when its type has none. */
export function structuredEditor(key: string, node: ScreenNode, onChange: (next: ScreenNode) => void): ReactElement | null {
  const editor = NODE_EDITORS[node.type] as ComponentType<NodeEditorProps> | undefined
  return editor ? createElement(editor, { key, node, onChange }) : null
}
