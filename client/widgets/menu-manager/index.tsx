import { TabPanel, TabView } from 'primereact/tabview'
import { useMessages } from '../../i18n/i18n'
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
    <TabView className="menu-manager">
      <TabPanel header={t('tab.menu')} leftIcon="pi pi-bars">
        <MenuEditor />
      </TabPanel>
      <TabPanel header={t('tab.columns')} leftIcon="pi pi-table">
        <ColumnsEditor />
      </TabPanel>
    </TabView>
  )
}
