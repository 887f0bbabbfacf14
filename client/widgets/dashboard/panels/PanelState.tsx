import type { UseQueryResult } from '@tanstack/react-query'
import { Skeleton } from 'primereact/skeleton'
import type { ReactNode } from 'react'
import { useDelayedFlag } from '../../../api/use-delayed-flag'
import { useMessages } from '../../../i18n/i18n'
import { EmptyState, ErrorState, LoadingBlock } from '../../../ui/states'
import { messages } from '../messages'

/**
 * What a panel shows while its data loads, after it failed (the failure itself was already
 * toasted through the one toast path by the query's meta) or when the answer holds nothing:
 * a skeleton, the compact error state with a retry, or the empty state. `isEmpty` is asked only
 * once every answer is in.
 */
export function PanelState({ queries, isEmpty, children }: { queries: UseQueryResult<unknown>[]; isEmpty?: () => boolean; children: () => ReactNode }) {
  const t = useMessages(messages)
  const pending = queries.some((q) => q.isPending)
  const failed = queries.find((q) => q.isError)
  const loading = useDelayedFlag(pending)
  if (failed) {
    return (
      <ErrorState compact onRetry={() => queries.filter((q) => q.isError).forEach((q) => void q.refetch())}>
        {t('panel.error')}
      </ErrorState>
    )
  }
  if (loading || queries.some((q) => q.data === undefined)) {
    return (
      <LoadingBlock className="dash-panel-loading" label={t('panel.loading')}>
        <Skeleton height="1.25rem" width="60%" />
        <Skeleton height="100%" />
      </LoadingBlock>
    )
  }
  if (isEmpty?.()) return <EmptyState icon="pi pi-chart-bar">{t('panel.empty')}</EmptyState>
  return <>{children()}</>
}
