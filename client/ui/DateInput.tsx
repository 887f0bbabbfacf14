import { Calendar, type CalendarProps, type CalendarSelectionMode } from 'primereact/calendar'
import { useRef, type KeyboardEvent, type MouseEvent } from 'react'

/**
 * PrimeReact's date picker made safe for the keyboard. Out of the box it opens when its input
 * takes focus and then moves focus into the calendar, so tabbing through a form or a filter bar
 * lands inside the calendar and stays there until Escape. Here Tab passes through; the calendar
 * opens on a click on the field, Enter, or Alt+ArrowDown (the library's own ArrowDown handling),
 * and Escape closes it and puts focus back on the field (the library's own handling).
 */
export function DateInput<TMode extends CalendarSelectionMode = 'single'>(props: CalendarProps<TMode>) {
  const ref = useRef<Calendar<TMode>>(null)
  const onField = (target: EventTarget) => !props.disabled && target === ref.current?.getInput()
  const isOpen = () => !!ref.current?.getOverlay()?.isConnected
  // Events of the calendar's own cells bubble here too (React portals): only the field's count.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && onField(e.target) && !isOpen()) {
      // Opening is what Enter does here; it must not submit the form around the field.
      e.preventDefault()
      ref.current?.show()
    }
  }
  const onClick = (e: MouseEvent) => {
    if (onField(e.target) && !isOpen()) ref.current?.show()
  }
  return (
    <span className="date-input" onKeyDown={onKeyDown} onClick={onClick}>
      <Calendar<TMode> ref={ref} {...props} showOnFocus={false} />
    </span>
  )
}
