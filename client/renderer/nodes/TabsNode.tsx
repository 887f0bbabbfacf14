import { useSearchParams } from 'react-router-dom'
import type { TabsNode } from '../../../schemas/screen'
import { useI18n } from '../../i18n/i18n'
import { TabView } from '../../ui/plain/TabView'
import { NodeList } from '../node-renderer'

/** Tabs; the open tab is kept in the URL (`tab=<key>`) so reload and back restore it. Only the open tab is drawn. */
export function TabsNodeView({ node }: { node: TabsNode }) {
  const { l } = useI18n()
  const [params, setParams] = useSearchParams()
  const param = node.id ? `${node.id}.tab` : 'tab'
  const index = Math.max(0, node.tabs.findIndex((t) => t.key === params.get(param)))
  return (
    <TabView
      className="screen-tabs"
      activeIndex={index}
      onChange={(i) => {
        const next = new URLSearchParams(params)
        next.set(param, node.tabs[i]!.key)
        setParams(next, { replace: true })
      }}
      tabs={node.tabs.map((tab) => ({ key: tab.key, header: l(tab.label), icon: tab.icon, content: () => <NodeList nodes={tab.children} /> }))}
    />
  )
}
