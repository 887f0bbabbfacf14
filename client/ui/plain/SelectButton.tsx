import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { classNames } from './class-names'
import './plain.css'

export interface SelectButtonOption {
  label: string
  value: string
}

export interface PlainSelectButtonProps<O extends SelectButtonOption> {
  value: O['value']
  options: O[]
  onChange: (value: O['value']) => void
  className?: string
  'aria-label'?: string
  itemTemplate?: (option: O) => ReactNode
}

/**
 * One choice among a few, with PrimeReact's SelectButton markup and keyboard (a group of
 * pressed/unpressed buttons, one tab stop, arrows move between them, Space or a click picks)
 * and none of its code; always one value chosen.
 */
export function SelectButton<O extends SelectButtonOption>({ value, options, onChange, className, itemTemplate, ...aria }: PlainSelectButtonProps<O>) {
  const [focusIndex, setFocusIndex] = useState(0)
  const [focused, setFocused] = useState<number | null>(null)
  const group = useRef<HTMLDivElement>(null)
  const pick = (index: number) => {
    setFocusIndex(index)
    const option = options[index]
    if (option && option.value !== value) onChange(option.value)
  }
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const step = event.code === 'ArrowRight' || event.code === 'ArrowDown' ? 1 : event.code === 'ArrowLeft' || event.code === 'ArrowUp' ? -1 : 0
    if (event.code === 'Space') pick(index)
    else if (step !== 0) {
      // From the group's tab stop, as PrimeReact does (the same item unless focus was put elsewhere by script).
      const next = (focusIndex + step + options.length) % options.length
      setFocusIndex(next)
      ;(group.current?.children[next] as HTMLElement | undefined)?.focus()
    } else return
    event.preventDefault()
  }
  return (
    <div ref={group} className={classNames(className, 'p-selectbutton p-button-group p-component')} role="group" aria-label={aria['aria-label']}>
      {options.map((option, index) => (
        <div
          key={option.value}
          className={classNames('p-button p-component', option.value === value && 'p-highlight', focused === index && 'p-focus')}
          role="button"
          aria-label={option.label}
          aria-pressed={option.value === value}
          tabIndex={index === focusIndex ? 0 : -1}
          aria-disabled={false}
          onClick={() => pick(index)}
          onKeyDown={(e) => onKeyDown(e, index)}
          onFocus={() => setFocused(index)}
          onBlur={() => setFocused(null)}
        >
          {itemTemplate ? itemTemplate(option) : <span className="p-button-label p-c">{option.label}</span>}
        </div>
      ))}
    </div>
  )
}
