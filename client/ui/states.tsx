import type { ReactNode } from 'react'

/**
 * What a view shows instead of its content: placeholders shaped like what is loading, an error
 * box when it failed (with a retry where one helps), a note when there is nothing. The spinners
 * are in ./loading.tsx (the first page needs those, and only those).
 */

/** Placeholders (PrimeReact Skeletons as `children`) standing where content is loading. */
export function LoadingBlock({ label, className, children }: { label?: string; className?: string; children: ReactNode }) {
  return (
    <div className={className} aria-busy="true" aria-label={label}>
      {children}
    </div>
  )
}

/** A visible error box (never a blank): what failed, and an action such as a retry. */
export function ErrorState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="screen-error-box" role="alert">
      <i className="pi pi-exclamation-triangle" aria-hidden="true" />
      <span>{children}</span>
      {action}
    </div>
  )
}

/** A quiet note where a list or a view has nothing to show. */
export function EmptyState({ children, className }: { children: ReactNode; className?: string }) {
  return <p className={className ? `empty-state ${className}` : 'empty-state'}>{children}</p>
}
