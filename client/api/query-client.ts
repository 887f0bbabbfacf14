import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query'
import { localized } from '../i18n/i18n'
import { reportError, type CallerText } from './errors'
import { notifySuccess } from './toast'

/** What a query or mutation tells the app about itself: where its errors go and what it refreshes. */
export interface CallMeta extends Record<string, unknown> {
  /** Failures are toasted (spec §8), titled and worded by the endpoint catalogue's entry for the failed call. */
  reportErrors?: boolean
  /** Toast title on failure, when the caller deliberately names its own area (implies reportErrors). */
  errorArea?: CallerText
  /** The caller's own failure message, used when the server sends none (implies reportErrors). */
  errorMessage?: CallerText
  /** Title and message only for a call the catalogue does not know (a `/bff/*` path), e.g. a node's title. */
  fallbackArea?: string
  fallbackMessage?: string
  /** Toast on success (mutations). */
  successMessage?: string
  /** Query keys refreshed after a successful mutation. */
  invalidates?: QueryKey[]
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: CallMeta
    mutationMeta: CallMeta
  }
}

/** Whether a call's failures are toasted, and how (see CallMeta). */
function report(err: unknown, meta: CallMeta | undefined): void {
  if (!meta || !(meta.reportErrors || meta.errorArea || meta.errorMessage || meta.fallbackArea)) return
  reportError(meta.errorArea, err, meta.errorMessage, { area: meta.fallbackArea, message: meta.fallbackMessage })
}

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => report(err, query.meta),
    }),
    mutationCache: new MutationCache({
      onError: (err, _vars, _ctx, mutation) => report(err, mutation.meta),
      onSuccess: async (_data, _vars, _ctx, mutation) => {
        if (mutation.meta?.successMessage) notifySuccess(localized(mutation.meta.errorArea ?? 'Portal'), mutation.meta.successMessage)
        for (const key of mutation.meta?.invalidates ?? []) await client.invalidateQueries({ queryKey: key })
      },
    }),
    defaultOptions: {
      // The api client already retries GETs per spec §9; TanStack must not multiply that.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  })
  return client
}
