import { Dropdown } from 'primereact/dropdown'
import { InputNumber } from 'primereact/inputnumber'
import { MultiSelect } from 'primereact/multiselect'
import { useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from 'react'
import { Button } from '../../ui/plain/Button'
import { InputText } from '../../ui/plain/InputText'
import type { Column } from '../../../schemas/screen'
import { useI18n, useMessages } from '../../i18n/i18n'
import { fromIsoDay, intlLocale, toIsoDay } from '../../ui/format'
import { useOptions } from '../options'
import { messages } from './messages'
import { DateInput } from '../../ui/DateInput'
import { CalendarAtRest, DropdownAtRest, InputNumberAtRest, MultiSelectAtRest } from '../../ui/plain/at-rest'
import { useAwakeOnReach } from '../../ui/use-awake-on-reach'

interface FilterBarProps {
  tableId: string
  columns: Column[]
  /** Fields of the columns on show: their filters come first; the others wait behind "Más filtros". */
  shown: string[]
  filters: Record<string, string>
  onChange: (filters: Record<string, string>) => void
}

/**
 * Where focus goes once the filters are cleared (the button that cleared them goes with them):
 * the bar's first field that stays on show, else its «Más filtros» button.
 */
export function focusFilters(tableId: string, columns: Column[], shown: string[]): void {
  const first = columns.find((c) => c.filter && shown.includes(c.field))
  document.getElementById(first ? `${tableId}-filter-${first.field}` : `${tableId}-filters-more`)?.focus()
}

/** One labelled input per filterable column; text waits for the user to pause typing. */
export function FilterBar({ tableId, columns, shown, filters, onChange }: FilterBarProps) {
  const t = useMessages(messages)
  const [more, setMore] = useState(false)
  const [open, setOpen] = useState(false)
  // Its empty choice, date and number fields are drawn at rest until the bar is reached.
  const { awake, wake, reach } = useAwakeOnReach()
  const all = columns.filter((c) => c.filter)
  const primary = all.filter((c) => shown.includes(c.field) || filters[c.field])
  const extra = all.filter((c) => !primary.includes(c))
  const filterable = more ? [...primary, ...extra] : primary
  if (all.length === 0) return null
  const set = (field: string, value: string) => {
    const next = { ...filters }
    if (value) next[field] = value
    else delete next[field]
    onChange(next)
  }
  const activeCount = Object.values(filters).filter(Boolean).length
  const barId = `${tableId}-filters`
  // On a phone the filters wait behind one button (CSS decides when), so the rows come first.
  return (
    <div className="filter-panel" data-open={open}>
      <Button
        type="button"
        icon="pi pi-filter"
        label={activeCount ? t('filters.toggleActive', { n: activeCount }) : t('filters.toggle')}
        outlined
        size="small"
        className="filter-panel__toggle"
        aria-expanded={open}
        aria-controls={barId}
        onClick={() => {
          wake()
          setOpen(!open)
        }}
      />
      <div id={barId} className="filter-bar" role="search" aria-label={t('filters.label')} {...reach}>
        {filterable.map((c) => (
          <FilterInput key={c.field} id={`${tableId}-filter-${c.field}`} column={c} value={filters[c.field] ?? ''} awake={awake} onChange={(v) => set(c.field, v)} />
        ))}
        {extra.length > 0 && (
          <Button id={`${tableId}-filters-more`} type="button" icon={more ? 'pi pi-minus' : 'pi pi-plus'} label={more ? t('filters.fewer') : t('filters.more', { n: extra.length })} text size="small" className="filter-bar__clear" aria-expanded={more} onClick={() => setMore(!more)} />
        )}
        {activeCount > 0 && (
          <Button
            type="button"
            icon="pi pi-filter-slash"
            label={t('filters.clear')}
            text
            size="small"
            className="filter-bar__clear"
            onClick={() => {
              onChange({})
              focusFilters(tableId, columns, shown)
            }}
          />
        )}
      </div>
    </div>
  )
}

function FilterInput({ id, column, value, awake, onChange }: { id: string; column: Column; value: string; awake: boolean; onChange: (v: string) => void }) {
  const { l, lang } = useI18n()
  const t = useMessages(messages)
  const label = l(column.header)
  const filter = column.filter!
  const { options } = useOptions(filter.options)
  const [text, setText] = useState(value)
  useEffect(() => setText(value), [value])
  // What was typed applies when typing pauses, on Enter, or on leaving the field (Tab to the
  // rows, a click on a sort header): whichever comes first; the others then find nothing new.
  const commit = (typed: string) => {
    if (filter.input === 'text' && typed.trim() !== value) onChange(typed.trim())
  }
  // The browser also blurs a focused field as it is removed (the user left the screen): no commit then.
  const leaving = useRef(false)
  useLayoutEffect(() => {
    leaving.current = false
    return () => {
      leaving.current = true
    }
  }, [])
  // Typing (not a new value from outside, nor a new onChange) starts the pause; it ends with the latest of both.
  const settle = useEffectEvent(commit)
  useEffect(() => {
    const timer = setTimeout(() => settle(text), 400)
    return () => clearTimeout(timer)
  }, [text])

  // An empty field waits at rest until the bar wakes; one with a value is drawn whole.
  const resting = !awake && !value
  let input
  switch (filter.input) {
    case 'select':
      input = resting ? (
        <DropdownAtRest inputId={id} placeholder={t('filter.all')} clearable />
      ) : (
        <Dropdown inputId={id} value={value || null} options={options} optionLabel="label" optionValue="value" showClear filter={options.length > 8} placeholder={t('filter.all')} onChange={(e) => onChange(e.value == null ? '' : String(e.value))} />
      )
      break
    case 'multiselect':
      input = resting ? (
        <MultiSelectAtRest inputId={id} placeholder={t('filter.all')} />
      ) : (
        <MultiSelect
          inputId={id}
          value={value ? value.split(',') : []}
          options={options.map((o) => ({ ...o, value: String(o.value) }))}
          optionLabel="label"
          optionValue="value"
          placeholder={t('filter.all')}
          maxSelectedLabels={2}
          selectedItemsLabel={t('filter.chosen')}
          filter={options.length > 8}
          onChange={(e) => onChange((e.value as string[]).join(','))}
        />
      )
      break
    case 'boolean':
      input = resting ? (
        <DropdownAtRest inputId={id} placeholder={t('filter.all')} clearable />
      ) : (
        <Dropdown
          inputId={id}
          value={value || null}
          options={[
            { label: t('filter.yes'), value: 'true' },
            { label: t('filter.no'), value: 'false' },
          ]}
          showClear
          placeholder={t('filter.all')}
          onChange={(e) => onChange(e.value ?? '')}
        />
      )
      break
    case 'dateRange': {
      const [from, to] = value ? value.split('|') : ['', '']
      input = resting ? (
        <span className="date-input">
          <CalendarAtRest inputId={id} placeholder={t('filter.dateRange')} />
        </span>
      ) : (
        <DateInput
          inputId={id}
          selectionMode="range"
          readOnlyInput
          value={[fromIsoDay(from), fromIsoDay(to)]}
          dateFormat={lang === 'en' ? 'mm/dd/yy' : 'dd/mm/yy'}
          showButtonBar
          placeholder={t('filter.dateRange')}
          onChange={(e) => {
            const range = (e.value as (Date | null)[] | null) ?? []
            const a = range[0] ? toIsoDay(range[0]) : null
            const b = range[1] ? toIsoDay(range[1]) : null
            onChange(a || b ? `${a ?? ''}|${b ?? ''}` : '')
          }}
        />
      )
      break
    }
    case 'numberRange': {
      const [from, to] = value ? value.split('|') : ['', '']
      const set = (a: string, b: string) => onChange(a || b ? `${a}|${b}` : '')
      input = resting ? (
        <span className="filter-range">
          <InputNumberAtRest inputId={id} aria-label={t('filter.min', { label })} placeholder={t('filter.minShort')} />
          <InputNumberAtRest aria-label={t('filter.max', { label })} placeholder={t('filter.maxShort')} />
        </span>
      ) : (
        <span className="filter-range">
          <InputNumber inputId={id} aria-label={t('filter.min', { label })} locale={intlLocale()} value={from ? Number(from) : null} placeholder={t('filter.minShort')} onValueChange={(e) => set(e.value == null ? '' : String(e.value), to ?? '')} />
          <InputNumber aria-label={t('filter.max', { label })} locale={intlLocale()} value={to ? Number(to) : null} placeholder={t('filter.maxShort')} onValueChange={(e) => set(from ?? '', e.value == null ? '' : String(e.value))} />
        </span>
      )
      break
    }
    default:
      input = (
        <InputText
          id={id}
          value={text}
          placeholder={filter.placeholder ? l(filter.placeholder) : t('filter.search')}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit(text)
          }}
          onBlur={() => !leaving.current && commit(text)}
        />
      )
  }
  return (
    <div className="filter-bar__item">
      <label htmlFor={id}>{label}</label>
      {input}
    </div>
  )
}
