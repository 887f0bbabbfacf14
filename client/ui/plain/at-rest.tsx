import type { InputHTMLAttributes } from 'react'
import { classNames } from './class-names'
import { ChevronDownIcon } from './field-icons'
import './plain.css'

/*
 * Empty PrimeReact fields drawn with PrimeReact's markup and classes and none of its code: what a
 * screen shows until someone reaches for the field (see FilterBar), so drawing a list does not
 * pay for a dozen PrimeReact components that most visits never touch. Each holds a focusable
 * element with the field's id, so a label, a Tab or a click lands where the real field will be.
 * A field the user has set is drawn by PrimeReact.
 */

interface AtRestProps {
  /** The id the real field's input takes (`inputId`). */
  inputId: string
  placeholder: string
}

/**
 * A Dropdown: empty, it shows `placeholder` (with `showClear`, as the filters draw it); with a
 * choice, `chosen` is its label (as the pager's page size).
 */
export function DropdownAtRest({ inputId, placeholder, chosen, clearable, 'aria-label': ariaLabel }: Partial<AtRestProps> & { chosen?: string; clearable?: boolean; 'aria-label'?: string }) {
  const filled = chosen !== undefined
  return (
    <div className={classNames('p-dropdown p-component p-inputwrapper', filled && 'p-inputwrapper-filled', clearable && 'p-dropdown-clearable')} data-at-rest="">
      <div className="p-hidden-accessible">
        <input id={inputId} type="text" readOnly aria-haspopup="listbox" tabIndex={0} aria-label={ariaLabel} value={chosen ?? ''} />
      </div>
      <span className={classNames('p-dropdown-label p-inputtext', !filled && 'p-placeholder')}>{filled ? chosen : placeholder}</span>
      <div className="p-dropdown-trigger" aria-hidden="true">
        <ChevronDownIcon className="p-dropdown-trigger-icon p-clickable" />
      </div>
    </div>
  )
}

/** An empty MultiSelect. */
export function MultiSelectAtRest({ inputId, placeholder }: AtRestProps) {
  return (
    <div className="p-multiselect p-component p-inputwrapper" data-at-rest="">
      <div className="p-hidden-accessible">
        <input id={inputId} type="text" readOnly role="combobox" aria-expanded="false" tabIndex={0} />
      </div>
      <div className="p-multiselect-label-container">
        <div className="p-multiselect-label p-placeholder">{placeholder}</div>
      </div>
      <div className="p-multiselect-trigger" aria-hidden="true">
        <ChevronDownIcon className="p-multiselect-trigger-icon p-c" />
      </div>
    </div>
  )
}

/** An empty read-only Calendar field (a date range picked in its panel). */
export function CalendarAtRest({ inputId, placeholder }: AtRestProps) {
  return (
    <span className="p-calendar p-component p-inputwrapper p-inputwrapper-filled" data-at-rest="">
      <input id={inputId} type="text" className="p-inputtext p-component" autoComplete="off" role="combobox" readOnly placeholder={placeholder} aria-expanded="false" aria-autocomplete="none" aria-haspopup="dialog" inputMode="none" />
    </span>
  )
}

/** An empty InputNumber. */
export function InputNumberAtRest({ inputId, placeholder, ...aria }: Partial<AtRestProps> & Pick<AtRestProps, 'placeholder'> & Pick<InputHTMLAttributes<HTMLInputElement>, 'aria-label'>) {
  return (
    <span className="p-inputnumber p-component p-inputwrapper" data-at-rest="">
      <input id={inputId} type="text" className="p-inputnumber-input p-inputtext p-component" role="spinbutton" inputMode="numeric" placeholder={placeholder} {...aria} />
    </span>
  )
}
