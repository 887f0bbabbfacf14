import { useQuery } from '@tanstack/react-query'
import { Tree, type TreeExpandedKeysType } from 'primereact/tree'
import type { TreeNode as PrimeTreeNode } from 'primereact/treenode'
import { useMemo, useState } from 'react'
import type { TreeNode } from '../../../schemas/screen'
import { api } from '../../api/client'
import { useFailureText } from '../../api/errors'
import { nodeKey } from '../../api/query-keys'
import { localized, useI18n, useMessages } from '../../i18n/i18n'
import { EmptyState, ErrorState, LoadingState } from '../../ui/states'
import { useRenderContext } from '../context'
import { messages } from '../messages'
import { fill, getPath, resolveParams } from '../template'

type Item = Record<string, unknown>

/** A hierarchy (agents under agencies…) from an endpoint answering nested nodes; keyboard navigable. */
export function TreeNodeView({ node }: { node: TreeNode }) {
  const { l, lang } = useI18n()
  const t = useMessages(messages)
  const loadError = t('data.loadError')
  const title = node.title ? l(node.title) : t('tree.title')
  const ctx = useRenderContext()
  const endpoint = `/${fill(node.source.endpoint, ctx, true)}`
  const params = resolveParams(node.source.params, ctx)
  const query = useQuery({
    queryKey: [...nodeKey(node.id ?? endpoint), endpoint, params],
    queryFn: () => api.get<unknown>(endpoint, { params }),
    // The screen's own area and message win; else the endpoint catalogue's for the call; the title and usual text are the last resort.
    meta: { errorArea: node.errorArea, errorMessage: node.errorMessage, fallbackArea: title, fallbackMessage: loadError },
  })
  const failure = useFailureText(query.error, node.errorMessage, loadError)
  const { nodes, keys } = useMemo(() => {
    const raw = node.source.path ? getPath(query.data, node.source.path) : query.data
    const roots = (Array.isArray(raw) ? raw : raw ? [raw] : []) as Item[]
    const keys: TreeExpandedKeysType = {}
    const map = (item: Item): PrimeTreeNode => {
      const key = String(getPath(item, node.keyField))
      const children = (getPath(item, node.childrenField) as Item[] | undefined) ?? []
      if (children.length) keys[key] = true
      return { key, label: fill(localized(node.label, lang), { row: item }), data: item, children: children.map(map), leaf: children.length === 0 }
    }
    return { nodes: roots.map(map), keys }
  }, [query.data, node, lang])
  const [expanded, setExpanded] = useState<TreeExpandedKeysType | null>(null)

  if (query.isError) return <ErrorState onRetry={() => void query.refetch()}>{failure}</ErrorState>
  if (query.isPending) return <LoadingState label={title} lines={4} className="card" />
  return (
    <section className="screen-tree" aria-label={title}>
      {node.title && <h2 className="table-title">{l(node.title)}</h2>}
      {nodes.length === 0 ? (
        <EmptyState icon="pi pi-sitemap">{node.emptyMessage ? l(node.emptyMessage) : t('tree.empty')}</EmptyState>
      ) : (
        <Tree
          value={nodes}
          expandedKeys={expanded ?? (node.expanded ? keys : {})}
          onToggle={(e) => setExpanded(e.value)}
          // The library's fold button has no name; the tree item itself answers to the arrow keys.
          pt={{ toggler: ({ context }: { context?: { expanded?: boolean } }) => ({ 'aria-label': context?.expanded ? t('tree.collapse') : t('tree.expand') }) }}
          nodeTemplate={(n) => (
            <span className="tree-label" translate="no">
              <span>{n.label}</span>
              {node.detail && <small className="tree-label__detail">{fill(l(node.detail), { row: n.data as Item })}</small>}
            </span>
          )}
        />
      )}
    </section>
  )
}
