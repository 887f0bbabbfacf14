import type { UseQueryResult } from '@tanstack/react-query'
import { Skeleton } from 'primereact/skeleton'
import type { ReactNode } from 'react'
import { useDelayedFlag } from '../../../api/use-delayed-flag'
import { useMessages } from '../../../i18n/i18n'
import { ErrorState, LoadingBlock } from '../../../ui/states'
import { messages } from '../messages'

/**
 * What a panel shows while its data loads or after it failed (the failure itself was already
 * toasted through the one toast path by the query's meta): a skeleton, or the compact error state with a retry.
 */
export function PanelState({ queries, children }: { queries: UseQueryResult<unknown>[]; children: () => ReactNode }) {
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
  return <>{children()}</>
}
