import type { KeyboardEvent } from 'react'
import { useMessages } from '../../../i18n/i18n'
import { messages } from './messages'
import type { OutlineItem } from './node-outline'

/** Moves the focus to another item of the outline with the arrow keys, Home and End (each item is a button: Tab reaches them too). */
function moveFocus(event: KeyboardEvent<HTMLButtonElement>) {
  const buttons = [...(event.currentTarget.closest('ol')?.querySelectorAll<HTMLButtonElement>('button') ?? [])]
  const at = buttons.indexOf(event.currentTarget)
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[event.key]
  if (to === undefined || !buttons[to]) return
  event.preventDefault()
  buttons[to].focus()
}

/** The outline of the screen's nodes as a list of buttons, indented by depth; the chosen one marked (aria-current). */
export function NodeOutline({ items, selected, onSelect }: { items: readonly OutlineItem[]; selected: string; onSelect: (pointer: string) => void }) {
  const t = useMessages(messages)
  return (
    <nav className="structure__outline" aria-label={t('outline.label')}>
      <ol>
        {items.map((item) => (
          <li key={item.pointer} style={{ paddingInlineStart: `${item.depth * 0.9}rem` }}>
            <button type="button" className="structure__item" aria-current={item.pointer === selected ? 'true' : undefined} onClick={() => onSelect(item.pointer)} onKeyDown={moveFocus} title={item.pointer}>
              <span className="structure__item-type">{t(`type.${item.type}`)}</span>
              {/* A node without a name of its own is labelled by its type, shown once. */}
              {item.label !== t(`type.${item.type}`) && <span className="structure__item-label"> {item.label}</span>}
              {item.place && <span className="structure__item-place"> {item.place}</span>}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  )
}
