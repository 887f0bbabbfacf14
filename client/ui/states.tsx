import { Button } from 'primereact/button'
import { Skeleton } from 'primereact/skeleton'
import type { ReactNode } from 'react'
import { useMessages } from '../i18n/i18n'
import { messages } from './messages'

/**
 * The four designed states every view that loads data goes through before (or instead of) its
 * content: loading, error, empty and filtered-empty. One family for tables, details, charts and
 * widgets, so a failed load never looks like an empty list. The spinners are in ./loading.tsx
 * (the first page needs those, and only those).
 */
export type ViewState = 'loading' | 'error' | 'empty' | 'filtered-empty' | 'ready'

export interface ViewFacts {
  /** Nothing to show yet because the first answer is on its way. */
  loading: boolean
  /** The last load failed (its toast is already out). */
  failed: boolean
  /** The answer holds nothing to show. */
  empty: boolean
  /** Filters narrow the answer: an empty answer then means "nothing matches", not "nothing exists". */
  filtered?: boolean
}

/**
 * Which state a view is in. A failure wins over whatever was shown before (stale rows would lie
 * about the current filter), loading wins over empty (no answer is not an empty answer).
 */
export function viewStateOf({ loading, failed, empty, filtered }: ViewFacts): ViewState {
  if (failed) return 'error'
  if (loading) return 'loading'
  if (empty) return filtered ? 'filtered-empty' : 'empty'
  return 'ready'
}

/** Placeholders (PrimeReact Skeletons as `children`) standing where content is loading. */
export function LoadingBlock({ label, className, children }: { label?: string; className?: string; children: ReactNode }) {
  return (
    <div className={className ? `loading-state ${className}` : 'loading-state'} role="status" aria-busy="true" aria-label={label}>
      {children}
    </div>
  )
}

/** The loading state with its usual shape: `lines` skeleton bars (a table's rows, a record's fields). */
export function LoadingState({ label, lines = 3, className }: { label?: string; lines?: number; className?: string }) {
  const t = useMessages(messages)
  const widths = ['45%', '80%', '65%', '90%', '55%', '75%']
  return (
    <LoadingBlock className={className} label={label ?? t('state.loading')}>
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} width={widths[i % widths.length]} height="1.1rem" className="mb-2" />
      ))}
    </LoadingBlock>
  )
}

export interface ErrorStateProps {
  /** What failed, in the user's words. */
  children: ReactNode
  /** Loads again: shows «Reintentar». */
  onRetry?: () => void
  /** Any other action (shown after the retry). */
  action?: ReactNode
  /** A small box for a dashboard panel or a chart's frame. */
  compact?: boolean
  className?: string
}

/** A visible error box (never a blank, never an empty list): what failed, and a retry where one helps. */
export function ErrorState({ children, onRetry, action, compact, className }: ErrorStateProps) {
  const t = useMessages(messages)
  const classes = ['screen-error-box', compact ? 'screen-error-box--compact' : '', className ?? ''].filter(Boolean).join(' ')
  return (
    <div className={classes} data-state="error">
      <i className="pi pi-exclamation-triangle" aria-hidden="true" />
      {/* Only the message is announced; the retry is a plain button after it. */}
      <span className="screen-error-box__text" role="alert">
        {children}
      </span>
      {onRetry && <Button type="button" size="small" outlined icon="pi pi-refresh" label={t('state.retry')} className="state-retry" onClick={onRetry} />}
      {action}
    </div>
  )
}

export interface EmptyStateProps {
  children: ReactNode
  className?: string
  /** What the user can do about it (create the first record, clear the filters). */
  action?: ReactNode
  /** A PrimeIcons name: draws the designed block (icon, text, action) instead of a quiet line. */
  icon?: string
}

/** Nothing to show: a quiet line inside a panel, or (with an icon or an action) a designed block. */
export function EmptyState({ children, className, action, icon }: EmptyStateProps) {
  const classes = className ? `empty-state ${className}` : 'empty-state'
  if (!action && !icon) return <p className={classes}>{children}</p>
  return (
    <div className={`${classes} empty-state--block`} data-state="empty">
      {icon && <i className={`pi ${icon} empty-state__icon`} aria-hidden="true" />}
      <p className="empty-state__text">{children}</p>
      {action}
    </div>
  )
}

/** Filters left nothing: said as such (not "there is nothing"), with the way back. */
export function FilteredEmptyState({ children, onClearFilters, className }: { children?: ReactNode; onClearFilters: () => void; className?: string }) {
  const t = useMessages(messages)
  return (
    <div className={className ? `empty-state empty-state--block ${className}` : 'empty-state empty-state--block'} data-state="filtered-empty">
      <i className="pi pi-filter-slash empty-state__icon" aria-hidden="true" />
      <p className="empty-state__text">{children ?? t('state.filteredEmpty')}</p>
      <Button type="button" size="small" outlined icon="pi pi-times" label={t('state.clearFilters')} className="state-clear-filters" onClick={onClearFilters} />
    </div>
  )
}
