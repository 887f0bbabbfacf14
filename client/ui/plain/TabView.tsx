import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { classNames } from './class-names'
import './plain.css'

export interface PlainTab {
  key: string
  header: string
  /** A PrimeIcons class shown before the header. */
  icon?: string
  /** The panel, drawn only while its tab is open. */
  content: () => ReactNode
}

/**
 * Tabs with PrimeReact's TabView markup and classes (the brand theme draws them) and its
 * keyboard: one tab stop on the open tab, the arrows, Home and End move between tabs, Enter or
 * Space opens the one with the focus. Only the open tab's panel is drawn. Unlike PrimeReact's,
 * nothing is measured after drawing (its ink bar, which the theme hides): a record's tabs no
 * longer lay the page out a second time once it is painted. Controlled with `activeIndex` and
 * `onChange`, or keeping its own open tab without them.
 */
export function TabView({ tabs, activeIndex, onChange, className }: { tabs: readonly PlainTab[]; activeIndex?: number; onChange?: (index: number) => void; className?: string }) {
  const id = useId()
  const nav = useRef<HTMLUListElement>(null)
  const [own, setOwn] = useState(0)
  const active = Math.min(Math.max(0, activeIndex ?? own), tabs.length - 1)
  const open = (index: number) => {
    if (index === active) return
    setOwn(index)
    onChange?.(index)
  }
  const focusTab = (index: number) => nav.current?.querySelectorAll<HTMLElement>('[role="tab"]')[(index + tabs.length) % tabs.length]?.focus()
  const onKeyDown = (e: KeyboardEvent<HTMLAnchorElement>, index: number) => {
    if (e.key === 'ArrowRight') focusTab(index + 1)
    else if (e.key === 'ArrowLeft') focusTab(index - 1)
    else if (e.key === 'Home') focusTab(0)
    else if (e.key === 'End') focusTab(tabs.length - 1)
    else if (e.key === 'Enter' || e.key === ' ') open(index)
    else return
    e.preventDefault()
  }
  const tab = tabs[active]
  return (
    <div className={classNames(className, 'p-tabview p-component')}>
      <div className="p-tabview-nav-container">
        <div className="p-tabview-nav-content">
          <ul ref={nav} className="p-tabview-nav" role="tablist">
            {tabs.map((t, i) => (
              <li key={t.key} className={classNames('p-unselectable-text', i === active && 'p-tabview-selected p-highlight')} role="presentation">
                <a
                  id={`${id}-tab-${i}`}
                  role="tab"
                  className="p-tabview-nav-link"
                  tabIndex={i === active ? 0 : -1}
                  aria-controls={i === active ? `${id}-panel-${i}` : undefined}
                  aria-selected={i === active}
                  onClick={() => open(i)}
                  onKeyDown={(e) => onKeyDown(e, i)}
                >
                  {t.icon && <span className={t.icon} aria-hidden="true" />}
                  <span className="p-tabview-title">{t.header}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="p-tabview-panels">
        {tab && (
          // Keyed by its tab: another tab's content is drawn anew, never patched over this one's (its state stays its own).
          <div key={tab.key} id={`${id}-panel-${active}`} className="p-tabview-panel" role="tabpanel" aria-labelledby={`${id}-tab-${active}`}>
            {tab.content()}
          </div>
        )}
      </div>
    </div>
  )
}
