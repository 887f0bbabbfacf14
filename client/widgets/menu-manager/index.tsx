import { TabPanel, TabView } from 'primereact/tabview'
import { ColumnsEditor } from './ColumnsEditor'
import { MenuEditor } from './MenuEditor'
import './menu-manager.css'

/**
 * The menu manager (issue 6): each brand's side menu and the table screens' columns, changed
 * without a release, validated by the BFF, versioned with history and rollback.
 */
export default function MenuManager() {
  return (
    <TabView className="menu-manager">
      <TabPanel header="Menú lateral" leftIcon="pi pi-bars">
        <MenuEditor />
      </TabPanel>
      <TabPanel header="Columnas de tablas" leftIcon="pi pi-table">
        <ColumnsEditor />
      </TabPanel>
    </TabView>
  )
}
