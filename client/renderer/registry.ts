import type { ComponentType } from 'react'
import { ActionNodeView } from './nodes/ActionNode'
import { DetailNodeView } from './nodes/DetailNode'
import { FormNodeView } from './nodes/FormNode'
import { LinksNodeView } from './nodes/LinksNode'
import { MarkdownNodeView } from './nodes/MarkdownNode'
import { PageNodeView } from './nodes/PageNode'
import { TableNodeView } from './nodes/TableNode'
import { TabsNodeView } from './nodes/TabsNode'
import { TreeNodeView } from './nodes/TreeNode'
import { WidgetNodeView } from './nodes/WidgetNode'

/** The one registry: node `type` → component. A new node type is added here and in schemas/screen.ts. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const NODE_REGISTRY: Record<string, ComponentType<{ node: any }>> = {
  page: PageNodeView,
  tabs: TabsNodeView,
  table: TableNodeView,
  form: FormNodeView,
  detail: DetailNodeView,
  action: ActionNodeView,
  markdown: MarkdownNodeView,
  links: LinksNodeView,
  tree: TreeNodeView,
  widget: WidgetNodeView,
}
