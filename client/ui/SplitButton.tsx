import type { MenuItem } from 'primereact/menuitem'
import { TieredMenu } from 'primereact/tieredmenu'
import { useId, useState, type CSSProperties, type KeyboardEvent } from 'react'
import { Button } from './plain/Button'
import { classNames } from './plain/class-names'
import { ChevronDownIcon } from './plain/field-icons'
import { usePopupOnDemand } from './popup-on-demand'

interface SplitButtonProps {
  label: string
  /** A PrimeIcons class, e.g. `pi pi-file-excel`. */
  icon?: string
  outlined?: boolean
  size?: 'small' | 'large'
  /** The main action is running: its button spins and waits. */
  loading?: boolean
  disabled?: boolean
  className?: string
  onClick: () => void
  /** The other choices, behind the arrow. */
  model: MenuItem[]
  /** What the arrow button is called (it has no text of its own). */
  menuLabel: string
  menuStyle?: CSSProperties
}

/**
 * A main action with more choices behind an arrow, drawn with PrimeReact's SplitButton markup
 * and classes. The menu (PrimeReact's TieredMenu) is mounted the first time the arrow opens it:
 * a list's toolbar draws this on every visit, and the menu is seldom opened.
 */
export function SplitButton({ label, icon, outlined, size, loading, disabled, className, onClick, model, menuLabel, menuStyle }: SplitButtonProps) {
  const menu = usePopupOnDemand<TieredMenu>()
  const [open, setOpen] = useState(false)
  const menuId = useId()
  // The arrow keys open the menu from its button, as PrimeReact's split button does.
  const onMenuKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return
    e.preventDefault()
    menu.toggle(e)
  }
  const sizeClass = size && `p-button-${size === 'small' ? 'sm' : 'lg'}`
  return (
    <div className={classNames(className, 'p-splitbutton p-component', outlined && 'p-button-outlined', sizeClass)}>
      <Button className="p-splitbutton-defaultbutton" label={label} icon={icon} outlined={outlined} size={size} loading={loading} disabled={disabled} onClick={onClick} />
      <button
        type="button"
        className={classNames('p-splitbutton-menubutton p-button p-component p-button-icon-only', outlined && 'p-button-outlined', sizeClass, disabled && 'p-disabled')}
        aria-label={menuLabel}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        onClick={menu.toggle}
        onKeyDown={onMenuKey}
      >
        <ChevronDownIcon className="p-button-icon p-c" />
        <span className="p-button-label p-c">{'\u00a0'}</span>
      </button>
      {menu.mounted && <TieredMenu ref={menu.ref} popup model={model} id={menuId} style={menuStyle} onShow={() => setOpen(true)} onHide={() => setOpen(false)} />}
    </div>
  )
}
