import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query'
import { reportError } from './errors'
import { notifySuccess } from './toast'

/** What a query or mutation tells the app about itself: where its errors go and what it refreshes. */
export interface CallMeta extends Record<string, unknown> {
  /** Toast title on failure (spec §8: titled by area). */
  errorArea?: string
  /** The call's own failure message, used when the server sends none. */
  errorMessage?: string
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

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        if (query.meta?.errorArea) reportError(query.meta.errorArea, err, query.meta.errorMessage)
      },
    }),
    mutationCache: new MutationCache({
      onError: (err, _vars, _ctx, mutation) => {
        if (mutation.meta?.errorArea) reportError(mutation.meta.errorArea, err, mutation.meta.errorMessage)
      },
      onSuccess: async (_data, _vars, _ctx, mutation) => {
        if (mutation.meta?.successMessage) notifySuccess(mutation.meta.errorArea ?? 'Portal', mutation.meta.successMessage)
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
