import { Dropdown } from 'primereact/dropdown'
import type { ReactNode } from 'react'
import { useMessages } from '../../i18n/i18n'
import { formatNumber } from '../format'
import { DropdownAtRest } from '../plain/at-rest'
import { classNames } from '../plain/class-names'
import { useAwakeOnReach } from '../use-awake-on-reach'
import { AngleDoubleLeftIcon, AngleDoubleRightIcon, AngleLeftIcon, AngleRightIcon } from './grid-icons'
import { messages } from './messages'

export interface PagerState {
  /** Page shown, from 0. */
  page: number
  size: number
  total: number
  /** Page sizes offered; the rows-per-page choice is left out when there is none. */
  sizes?: readonly number[]
}

/** How many page links the pager shows around the current page (PrimeReact's default). */
const PAGE_LINKS = 5

/** The pages (from 0) whose links the pager shows: `links` of them, the current one kept in the middle where it can be. */
export function pageLinks(page: number, pageCount: number, links = PAGE_LINKS): number[] {
  if (pageCount <= 0) return []
  const visible = Math.min(links, pageCount)
  let start = Math.max(0, Math.ceil(page - visible / 2))
  const end = Math.min(pageCount - 1, start + visible - 1)
  start = Math.max(0, start - (links - (end - start + 1)))
  return Array.from({ length: end - start + 1 }, (_, i) => start + i)
}

/** The first and last rows shown (from 1) and the whole set's size, in the user's numbers: «11–20 de 650». */
export function pageReport(state: PagerState): { first: string; last: string; total: string } {
  const first = Math.min(state.page * state.size + 1, state.total)
  const last = Math.min((state.page + 1) * state.size, state.total)
  return { first: formatNumber(first, 0), last: formatNumber(last, 0), total: formatNumber(state.total, 0) }
}

/**
 * A table's pager with PrimeReact's Paginator markup and classes (the brand theme styles it)
 * and none of its per-element machinery: rows per page, first/previous, five page links,
 * next/last and the «1–10 de 650» report, read out politely when it changes.
 */
export function Paginator({ state, onChange }: { state: PagerState; onChange: (page: number, size: number) => void }) {
  const t = useMessages(messages)
  const pageCount = Math.max(1, Math.ceil(state.total / state.size))
  const atFirst = state.page <= 0
  const atLast = state.page >= pageCount - 1
  const go = (page: number) => {
    const next = Math.min(pageCount - 1, Math.max(0, page))
    if (next !== state.page) onChange(next, state.size)
  }
  const links = pageLinks(state.page, pageCount)
  // The page size picker is drawn at rest until the pager is reached.
  const { awake, reach } = useAwakeOnReach()
  const edge = (kind: 'first' | 'prev' | 'next' | 'last', disabled: boolean, to: number, icon: ReactNode) => (
    <button type="button" className={classNames(`p-paginator-${kind} p-paginator-element p-link`, disabled && 'p-disabled')} disabled={disabled} aria-label={t(`pager.${kind}`)} onClick={() => go(to)}>
      {icon}
    </button>
  )
  return (
    <div className="p-paginator p-component p-paginator-bottom" {...reach}>
      {state.sizes && state.sizes.length > 0 && !awake && <DropdownAtRest chosen={String(state.size)} aria-label={t('pager.rowsPerPage')} />}
      {state.sizes && state.sizes.length > 0 && awake && (
        // `aria-label` names the field, `ariaLabel` its open button.
        <Dropdown
          value={state.size}
          options={state.sizes.map((n) => ({ label: String(n), value: n }))}
          onChange={(e) => onChange(0, Number(e.value))}
          aria-label={t('pager.rowsPerPage')}
          ariaLabel={t('pager.rowsPerPage')}
        />
      )}
      {edge('first', atFirst, 0, <AngleDoubleLeftIcon className="p-paginator-icon" />)}
      {edge('prev', atFirst, state.page - 1, <AngleLeftIcon className="p-paginator-icon" />)}
      <span className="p-paginator-pages">
        {links.map((p, i) => (
          <button
            key={p}
            type="button"
            className={classNames('p-paginator-page p-paginator-element p-link', i === 0 && 'p-paginator-page-start', i === links.length - 1 && 'p-paginator-page-end', p === state.page && 'p-highlight')}
            aria-label={t('pager.page', { page: p + 1 })}
            aria-current={p === state.page ? 'true' : undefined}
            onClick={() => go(p)}
          >
            {p + 1}
          </button>
        ))}
      </span>
      {edge('next', atLast, state.page + 1, <AngleRightIcon className="p-paginator-icon" />)}
      {edge('last', atLast, pageCount - 1, <AngleDoubleRightIcon className="p-paginator-icon" />)}
      <span className="p-paginator-current" aria-live="polite">
        {t('pager.report', pageReport(state))}
      </span>
    </div>
  )
}
