import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { createPortal } from 'react-dom'
import { useNavigate } from 'react-router-dom'
import type { SearchResult } from '../../schemas/search'
import { useI18n, useMessages } from '../i18n/i18n'
import { useOfferedActions, type OfferedAction } from '../ui/offered-actions'
import { paletteMessages } from './palette-messages'
import { usePaletteSearch } from './use-palette-search'

const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()

/** One row of the palette: an action of the current screen, or a result of the BFF's search. */
type Item = { type: 'action'; group: 'actions'; label: string; detail?: string; icon?: string; action: OfferedAction } | { type: 'result'; group: SearchResult['group']; label: string; detail?: string; icon?: string; result: SearchResult }

const ICONS: Record<SearchResult['kind'], string> = {
  screen: 'pi pi-window-maximize',
  contract: 'pi pi-file',
  supplyPoint: 'pi pi-bolt',
  client: 'pi pi-id-card',
  user: 'pi pi-user',
  agent: 'pi pi-briefcase',
}

/** The actions of the screen on display whose label holds every typed word (all of them when nothing is typed). */
function matchingActions(actions: OfferedAction[], text: string): Item[] {
  const words = fold(text).split(/\s+/).filter(Boolean)
  return actions.filter((a) => words.every((w) => fold(a.label).includes(w))).map((a) => ({ type: 'action', group: 'actions', label: a.label, icon: a.icon, action: a }))
}

/**
 * The command palette (Ctrl+K / ⌘K, or the top bar's search box): screens, records and the
 * current screen's actions, grouped; arrow keys move, Enter opens, Escape closes and gives focus
 * back to where it was. A combobox over a listbox (WAI-ARIA): focus stays in the box.
 */
export function CommandPalette({ onClose }: { onClose: () => void }) {
  const t = useMessages(paletteMessages)
  const { lang } = useI18n()
  const navigate = useNavigate()
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [text, setText] = useState('')
  const [active, setActive] = useState(0)
  const search = usePaletteSearch(text, lang)
  const actions = useOfferedActions()

  // Focus goes back to what had it (the search box, the page) when the palette closes.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    input.current?.focus()
    return () => before?.focus?.({ preventScroll: true })
  }, [])

  const items = useMemo<Item[]>(() => {
    const found: Item[] = search.status === 'done' ? search.results.map((r) => ({ type: 'result', group: r.group, label: r.label, detail: r.detail, icon: ICONS[r.kind], result: r })) : []
    return [...matchingActions(actions, text), ...found]
  }, [actions, search, text])
  const current = Math.min(active, Math.max(items.length - 1, 0))

  const choose = (item: Item | undefined) => {
    if (!item) return
    onClose()
    if (item.type === 'action') item.action.run()
    else navigate(item.result.path)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const move = (to: number) => {
      e.preventDefault()
      if (items.length === 0) return
      const next = (to + items.length) % items.length
      setActive(next)
      document.getElementById(`${id}-opt-${next}`)?.scrollIntoView({ block: 'nearest' })
    }
    if (e.key === 'ArrowDown') move(current + 1)
    else if (e.key === 'ArrowUp') move(current - 1)
    else if (e.key === 'Home' && e.ctrlKey) move(0)
    else if (e.key === 'End' && e.ctrlKey) move(items.length - 1)
    else if (e.key === 'Enter') {
      e.preventDefault()
      choose(items[current])
    } else if (e.key === 'Escape') {
      e.preventDefault()
      onClose()
    } else if (e.key === 'Tab') e.preventDefault()
  }

  const groups: { key: Item['group']; items: { item: Item; index: number }[] }[] = []
  items.forEach((item, index) => {
    const last = groups[groups.length - 1]
    if (last?.key === item.group) last.items.push({ item, index })
    else groups.push({ key: item.group, items: [{ item, index }] })
  })
  const listId = `${id}-list`
  const q = text.trim()

  return createPortal(
    <div className="palette-mask" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="palette" role="dialog" aria-modal="true" aria-label={t('dialog.label')}>
        <div className="palette__search">
          <i className="pi pi-search" aria-hidden="true" />
          <input
            ref={input}
            className="palette__input"
            type="text"
            role="combobox"
            aria-label={t('input.label')}
            aria-expanded={items.length > 0}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={items.length > 0 ? `${id}-opt-${current}` : undefined}
            placeholder={t('input.placeholder')}
            value={text}
            maxLength={100}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => {
              setText(e.target.value)
              setActive(0)
            }}
            onKeyDown={onKeyDown}
          />
          {search.status === 'loading' && <i className="pi pi-spin pi-spinner palette__spinner" aria-hidden="true" />}
        </div>
        <div id={listId} className="palette__list" role="listbox" aria-label={t('dialog.label')} aria-busy={search.status === 'loading'}>
          {groups.map((g) => (
            <div key={g.key} role="group" aria-labelledby={`${id}-g-${g.key}`} className="palette__group">
              <div id={`${id}-g-${g.key}`} className="palette__heading" role="presentation">
                {t(`group.${g.key}`)}
              </div>
              {g.items.map(({ item, index }) => (
                <div
                  key={`${item.group}:${item.type === 'action' ? item.action.key : item.result.path}`}
                  id={`${id}-opt-${index}`}
                  role="option"
                  aria-selected={index === current}
                  className={`palette__option${index === current ? ' palette__option--active' : ''}`}
                  onMouseMove={() => index !== current && setActive(index)}
                  onClick={() => choose(item)}
                >
                  <i className={`${item.icon ?? 'pi pi-angle-right'} palette__icon`} aria-hidden="true" />
                  <span className="palette__label">{item.label}</span>
                  {item.detail && <span className="palette__detail">{item.detail}</span>}
                </div>
              ))}
            </div>
          ))}
        </div>
        <div className="palette__status" aria-live="polite">
          {!q && items.length === 0 && <p className="palette__note">{t('hint')}</p>}
          {q && search.status === 'loading' && <p className="palette__note">{t('loading')}</p>}
          {q && search.status === 'done' && items.length === 0 && <p className="palette__note palette__note--empty">{t('empty', { q })}</p>}
          {search.status === 'done' && search.unavailable.length > 0 && (
            <p className="palette__note palette__note--warn">{t('unavailable', { groups: search.unavailable.map((g) => t(`group.${g}`)).join(', ') })}</p>
          )}
          {search.status === 'error' && (
            <p className="palette__note palette__note--error" role="alert">
              {t('error', { message: search.message ?? t('error.generic') })}
            </p>
          )}
        </div>
        <div className="palette__keys" aria-hidden="true">
          <span><kbd>↑</kbd><kbd>↓</kbd> {t('keys.move')}</span>
          <span><kbd>↵</kbd> {t('keys.open')}</span>
          <span><kbd>Esc</kbd> {t('keys.close')}</span>
        </div>
      </div>
    </div>,
    document.body,
  )
}
