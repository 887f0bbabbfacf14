import { useMessages } from '../../i18n/i18n'
import { TabView } from '../../ui/plain/TabView'
import { ColumnsEditor } from './ColumnsEditor'
import { MenuEditor } from './MenuEditor'
import { messages } from './messages'
import './menu-manager.css'

/**
 * The menu manager (issue 6): each brand's side menu and the table screens' columns, changed
 * without a release, validated by the BFF, versioned with history and rollback.
 */
export default function MenuManager() {
  const t = useMessages(messages)
  return (
    <TabView
      className="menu-manager"
      tabs={[
        { key: 'menu', header: t('tab.menu'), icon: 'pi pi-bars', content: () => <MenuEditor /> },
        { key: 'columns', header: t('tab.columns'), icon: 'pi pi-table', content: () => <ColumnsEditor /> },
      ]}
    />
  )
}
