import type { UseQueryResult } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Skeleton } from 'primereact/skeleton'
import type { ReactNode } from 'react'
import { useDelayedFlag } from '../../../api/use-delayed-flag'
import { useMessages } from '../../../i18n/i18n'
import { messages } from '../messages'

/**
 * What a panel shows while its data loads or after it failed (the failure itself was already
 * toasted through the one toast path by the query's meta): a skeleton, or a short note with a retry.
 */
export function PanelState({ queries, children }: { queries: UseQueryResult<unknown>[]; children: () => ReactNode }) {
  const t = useMessages(messages)
  const pending = queries.some((q) => q.isPending)
  const failed = queries.find((q) => q.isError)
  const loading = useDelayedFlag(pending)
  if (failed) {
    return (
      <div className="dash-panel-error">
        <i className="pi pi-exclamation-circle" aria-hidden="true" />
        <span>{t('panel.error')}</span>
        <Button type="button" size="small" text icon="pi pi-refresh" label={t('panel.retry')} onClick={() => queries.filter((q) => q.isError).forEach((q) => void q.refetch())} />
      </div>
    )
  }
  if (loading || queries.some((q) => q.data === undefined)) {
    return (
      <div className="dash-panel-loading" aria-busy="true" aria-label={t('panel.loading')}>
        <Skeleton height="1.25rem" width="60%" />
        <Skeleton height="100%" />
      </div>
    )
  }
  return <>{children()}</>
}
