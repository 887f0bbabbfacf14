import { useSearchParams } from 'react-router-dom'
import { useMessages } from '../../i18n/i18n'
import { TabView } from '../../ui/plain/TabView'
import { ListView } from './ListView'
import { messages } from './messages'
import { SingleView } from './SingleView'
import { readSipsUrl, writeSipsUrl, type SipsUrlState } from './sips-logic'
import './sips.css'

/**
 * Sips: what the national supply-point information system knows of one CUPS (supply point,
 * contract, meter, flags, 36 months of consumption) or of a list of them. The lookup lives in
 * the URL (`?cups=…`, `?lista=…&vista=lista`), so a link reopens it.
 */
export default function SipsWidget() {
  const t = useMessages(messages)
  const [search, setSearch] = useSearchParams()
  const state = readSipsUrl(search)
  const update = (patch: Partial<SipsUrlState>, replace = false) => setSearch(writeSipsUrl({ ...state, ...patch }), { replace })

  return (
    <div className="sips-tool">
      <TabView
        className="sips-tabs"
        activeIndex={state.view === 'lista' ? 1 : 0}
        onChange={(index) => update({ view: index === 1 ? 'lista' : 'uno' })}
        tabs={[
          { key: 'uno', header: t('tab.single'), icon: 'pi pi-search', content: () => <SingleView cups={state.cups} onLookup={(cups) => update({ cups, view: 'uno' })} /> },
          {
            key: 'lista',
            header: t('tab.list'),
            icon: 'pi pi-list',
            content: () => <ListView list={state.list} onLookup={(list) => update({ list, view: 'lista' })} onOpen={(cups) => update({ cups, view: 'uno' })} />,
          },
        ]}
      />
    </div>
  )
}
