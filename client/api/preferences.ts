import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from './client'
import { useLoadedManifest } from './manifest'

/** A user preference as the upstream stores it (`api/usuarios/preference`): follows the user to any machine. */
export interface Preference {
  Id: number
  Clave: string
  Valor: unknown
  FechaModificacion?: string
}

export const PREFERENCES_KEY = ['preferences'] as const

/** The query of every preference of user `userId` (also prefetched by the dashboard's init step). */
export const preferencesQuery = (userId: number | undefined) => ({
  queryKey: [...PREFERENCES_KEY, userId],
  queryFn: () => api.get<Preference[]>('/api/usuarios/preferences', { params: { loggedUserId: userId } }),
  staleTime: 60_000,
})

/** Every preference of the signed-in user. */
export function usePreferences() {
  const manifest = useLoadedManifest()
  const userId = manifest.user?.id
  return useQuery({
    ...preferencesQuery(userId),
    enabled: userId !== undefined,
    // Titled and worded by the endpoint catalogue (spec §8).
    meta: { reportErrors: true },
  })
}

/** One preference by key, with save and remove. */
export function usePreference<T>(key: string) {
  const client = useQueryClient()
  const manifest = useLoadedManifest()
  const all = usePreferences()
  const found = all.data?.find((p) => p.Clave === key)
  const refresh = () => client.invalidateQueries({ queryKey: PREFERENCES_KEY })
  return {
    value: found?.Valor as T | undefined,
    loading: all.isPending,
    save: async (value: T) => {
      await api.post('/api/usuarios/preference', { Clave: key, Valor: value })
      await refresh()
    },
    remove: async () => {
      if (!found) return
      await api.delete('/api/usuarios/preference', undefined, { params: { loggedUserId: manifest.user?.id, preferenciaId: found.Id } })
      await refresh()
    },
  }
}
