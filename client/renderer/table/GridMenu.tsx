import type { MenuItem } from 'primereact/menuitem'
import { TieredMenu } from 'primereact/tieredmenu'
import { Button } from '../../ui/plain/Button'
import type { Column } from '../../../schemas/screen'
import { useI18n, useMessages } from '../../i18n/i18n'
import { usePopupOnDemand } from '../../ui/popup-on-demand'
import { messages } from './messages'
import type { Pin } from './table-prefs'
import type { GridLayoutController } from './use-grid-layout'

/** The table's layout menu: density, pinning columns to the left or right edge, and «Restablecer». */
export function GridMenu({ columns, grid }: { columns: readonly Column[]; grid: GridLayoutController }) {
  const { l } = useI18n()
  const t = useMessages(messages)
  const menu = usePopupOnDemand<TieredMenu>()
  const { density, pinned } = grid.layout
  const checked = (on: boolean) => (on ? 'pi pi-check' : 'pi pi-fw')
  // One submenu per side (a third menu level is awkward to reach): a checked column is pinned
  // to that side, and choosing it again unpins it.
  const pinMenu = (side: Pin, label: string): MenuItem => ({
    label,
    icon: side === 'left' ? 'pi pi-arrow-left' : 'pi pi-arrow-right',
    items: columns.map((col) => ({
      label: l(col.header),
      icon: checked(pinned[col.field] === side),
      command: () => void grid.setPin(col.field, pinned[col.field] === side ? null : side),
    })),
  })
  const model: MenuItem[] = [
    {
      label: t('grid.density'),
      icon: 'pi pi-bars',
      items: [
        { label: t('grid.comfortable'), icon: checked(density === 'comfortable'), command: () => void grid.setDensity('comfortable') },
        { label: t('grid.compact'), icon: checked(density === 'compact'), command: () => void grid.setDensity('compact') },
      ],
    },
    pinMenu('left', t('grid.pinLeft')),
    pinMenu('right', t('grid.pinRight')),
    { separator: true },
    { label: t('grid.reset'), icon: 'pi pi-refresh', disabled: !grid.customised, command: () => void grid.reset() },
  ]
  return (
    <>
      <Button type="button" icon="pi pi-sliders-h" label={t('grid.menu')} outlined size="small" aria-haspopup="menu" onClick={menu.toggle} />
      {menu.mounted && <TieredMenu model={model} popup ref={menu.ref} aria-label={t('grid.menu')} />}
    </>
  )
}
