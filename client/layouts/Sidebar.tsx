import { useState } from 'react'
import { NavLink } from 'react-router-dom'
import type { ResolvedMenuEntry } from '../../schemas/menu'
import { useI18n, useMessages } from '../i18n/i18n'
import { messages } from './messages'

interface SidebarProps {
  menu: ResolvedMenuEntry[]
  onCommand: (command: string) => void
  onNavigate: () => void
  /** A link is about to be followed (hovered or focused): prefetch what it leads to. */
  onIntent?: (path: string) => void
}

/** The side menu of the manifest: sections, groups that fold, links; all reachable by keyboard. */
export function Sidebar({ menu, onCommand, onNavigate, onIntent }: SidebarProps) {
  const { t, l } = useI18n()
  return (
    <nav className="layout-sidebar" aria-label={t('layout.menu')}>
      <ul className="layout-menu">
        {menu.map((section) => (
          <li key={section.key} className="layout-menu__section">
            <div className="layout-menu__section-title" id={`menu-section-${section.key}`}>
              {l(section.label)}
              {section.badge && <span className="menu-badge">{section.badge}</span>}
            </div>
            <ul aria-labelledby={`menu-section-${section.key}`}>
              {(section.items ?? []).map((entry) => (
                <MenuEntryView key={entry.key} entry={entry} onCommand={onCommand} onNavigate={onNavigate} onIntent={onIntent} />
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </nav>
  )
}

function MenuEntryView({ entry, onCommand, onNavigate, onIntent }: { entry: ResolvedMenuEntry } & Omit<SidebarProps, 'menu'>) {
  const { l } = useI18n()
  const t = useMessages(messages)
  const [open, setOpen] = useState(true)
  const label = l(entry.label)
  const icon = entry.icon ? <i className={`${entry.icon} layout-menu__icon`} aria-hidden="true" /> : null

  if (entry.items) {
    const id = `menu-group-${entry.key}`
    return (
      <li className="layout-menu__group">
        <button type="button" className="layout-menu__link layout-menu__toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
          {icon}
          <span>{label}</span>
          <i className={`pi ${open ? 'pi-chevron-down' : 'pi-chevron-right'} layout-menu__chevron`} aria-hidden="true" />
        </button>
        <ul id={id} hidden={!open} className="layout-menu__sub">
          {entry.items.map((child) => (
            <MenuEntryView key={child.key} entry={child} onCommand={onCommand} onNavigate={onNavigate} onIntent={onIntent} />
          ))}
        </ul>
      </li>
    )
  }
  if (entry.to) {
    return (
      <li>
        <NavLink to={entry.to} end className="layout-menu__link" data-menu-key={entry.key} onClick={onNavigate} onMouseEnter={() => onIntent?.(entry.to!)} onFocus={() => onIntent?.(entry.to!)}>
          {icon}
          <span>{label}</span>
          {entry.badge && <span className="menu-badge">{entry.badge}</span>}
        </NavLink>
      </li>
    )
  }
  if (entry.href) {
    return (
      <li>
        <a href={entry.href} target="_blank" rel="noopener noreferrer" className="layout-menu__link" data-menu-key={entry.key}>
          {icon}
          <span>{label}</span>
          <i className="pi pi-external-link layout-menu__external" aria-label={t('menu.external')} />
        </a>
      </li>
    )
  }
  return (
    <li>
      <button type="button" className="layout-menu__link" data-menu-key={entry.key} onClick={() => entry.command && onCommand(entry.command)}>
        {icon}
        <span>{label}</span>
      </button>
    </li>
  )
}
