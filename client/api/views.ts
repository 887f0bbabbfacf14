import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { CreateViewBody, UpdateViewBody, ViewForUser, ViewListAnswer } from '../../schemas/view'
import { api } from './client'

/** Views of lists kept by the BFF (schemas/view.ts): what one table's views menu reads and writes. */
export const VIEWS_KEY = ['views'] as const

export const viewsQuery = (screen: string, table: string) => ({
  queryKey: [...VIEWS_KEY, screen, table],
  queryFn: () => api.get<ViewListAnswer>('/bff/views', { params: { screen, table } }),
  staleTime: 30_000,
})

/** The views this user sees on one table, with the groups they may share with; read and written together. */
export function useViews(screen: string, table: string, enabled = true) {
  const client = useQueryClient()
  const query = useQuery({ ...viewsQuery(screen, table), enabled })
  const refresh = () => client.invalidateQueries({ queryKey: [...VIEWS_KEY, screen, table] })
  return {
    query,
    create: async (body: CreateViewBody) => {
      const saved = await api.post<ViewForUser>('/bff/views', body)
      await refresh()
      return saved
    },
    update: async (id: string, body: UpdateViewBody) => {
      const saved = await api.put<ViewForUser>(`/bff/views/${encodeURIComponent(id)}`, body)
      await refresh()
      return saved
    },
    withdraw: async (id: string, version: number) => {
      await api.delete(`/bff/views/${encodeURIComponent(id)}`, undefined, { params: { version } })
      await refresh()
    },
    refresh,
  }
}
