import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import './plain/plain.css'

/** The attribute that gives an element its tip: `data-tip="Ver contrato"`. */
export const TIP_ATTRIBUTE = 'data-tip'

interface Shown {
  text: string
  /** Where the element is, in the viewport. */
  rect: DOMRect
}

/** Room the tip needs above its element; with less, it goes below. */
const ROOM_ABOVE_PX = 40

/**
 * One tooltip for every page: an element with `data-tip` shows its text above it
 * while the pointer is on it or it has the keyboard focus, in PrimeReact's tooltip markup (so the
 * brand theme draws it). A table's row buttons used one PrimeReact Tooltip each, mounted with every
 * row: a list's first paint spent about a tenth of its time on them. Escape, a click or leaving
 * the element hides it; scrolling moves it with its element.
 */
export function HoverTips() {
  const [shown, setShown] = useState<Shown | null>(null)
  useEffect(() => {
    let current: Element | null = null
    const place = (el: Element | null) => {
      current = el
      const text = el?.getAttribute(TIP_ATTRIBUTE)
      setShown(el && text ? { text, rect: el.getBoundingClientRect() } : null)
    }
    const show = (el: Element | null) => el !== current && place(el)
    const enter = (e: Event) => show(e.target instanceof Element ? e.target.closest(`[${TIP_ATTRIBUTE}]`) : null)
    const leave = (e: MouseEvent | FocusEvent) => {
      if (!(e.relatedTarget instanceof Element) || !current?.contains(e.relatedTarget)) show(null)
    }
    const hide = () => show(null)
    // Scrolling moves the element under the tip: it follows (gone from the page, it hides).
    const follow = () => current && place(current.isConnected ? current : null)
    const key = (e: KeyboardEvent) => e.key === 'Escape' && hide()
    // Listened to once, on the whole page (capture, so a scrolled table or a stopped click counts too).
    const listeners: [EventTarget, string, (e: never) => void][] = [
      [document, 'mouseover', enter],
      [document, 'mouseout', leave],
      [document, 'focusin', enter],
      [document, 'focusout', leave],
      [document, 'pointerdown', hide],
      [document, 'keydown', key],
      [window, 'scroll', follow],
    ]
    for (const [target, type, listener] of listeners) target.addEventListener(type, listener as EventListener, true)
    return () => {
      for (const [target, type, listener] of listeners) target.removeEventListener(type, listener as EventListener, true)
    }
  }, [])
  return shown ? createPortal(<Tip shown={shown} />, document.body) : null
}

/** Space kept between the tip and the window's edges. */
const EDGE_PX = 8

/** The tip, centred on its element and kept inside the window, its arrow on the element. */
function Tip({ shown }: { shown: Shown }) {
  const box = useRef<HTMLDivElement>(null)
  const above = shown.rect.top >= ROOM_ABOVE_PX
  const centre = shown.rect.left + shown.rect.width / 2
  const [left, setLeft] = useState(centre)
  // Measured before it is painted: a tip by the window's edge moves in, its arrow stays on the element.
  useLayoutEffect(() => {
    const width = box.current?.offsetWidth ?? 0
    setLeft(Math.min(Math.max(centre - width / 2, EDGE_PX), Math.max(EDGE_PX, window.innerWidth - width - EDGE_PX)))
  }, [centre, shown.text])
  return (
    <div
      ref={box}
      className={`p-tooltip p-component hover-tip ${above ? 'p-tooltip-top' : 'p-tooltip-bottom'}`}
      role="tooltip"
      style={{ left, top: above ? shown.rect.top : shown.rect.bottom, transform: above ? 'translateY(-100%)' : undefined }}
    >
      <div className="p-tooltip-arrow" style={{ left: centre - left }} />
      <div className="p-tooltip-text">{shown.text}</div>
    </div>
  )
}
