import { useQuery } from '@tanstack/react-query'
import { api } from '../../api/client'
import { LOADING_CLEAR_DELAY, useDelayedFlag } from '../../api/use-delayed-flag'
import { messageIn } from '../../i18n/i18n'
import { messages } from './messages'
import { normalizeCups } from './sips-logic'

export interface CupsValidation {
  Valido: boolean
  Normalizado: string
  Motivo: string | null
  Distribuidora?: { Codigo: string; Nombre: string } | null
  Aviso?: string | null
}

export type CupsCheck =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'valid'; normalized: string; distributor: string | null; warning: string | null }
  | { state: 'invalid'; message: string }
  | { state: 'unavailable' }

/**
 * The CUPS validator, called at once for each new value as the user types (React Query drops the
 * previous call's answer); its loading flag clears 500 ms after the answer (spec §9, validators).
 */
export function useCupsCheck(value: string): CupsCheck {
  const text = normalizeCups(value)
  const query = useQuery({
    queryKey: ['validators', 'cups', text],
    queryFn: ({ signal }) => api.get<CupsValidation>('/api/validators/cups', { params: { cups: text }, signal }),
    enabled: text.length > 0,
    staleTime: Infinity,
  })
  const checking = useDelayedFlag(text.length > 0 && query.isFetching, LOADING_CLEAR_DELAY.validator)
  if (!text) return { state: 'idle' }
  if (checking || query.isPending) return { state: 'checking' }
  if (query.isError || !query.data) return { state: 'unavailable' }
  const v = query.data
  if (!v.Valido) return { state: 'invalid', message: v.Motivo ?? messageIn(messages, 'single.invalid') }
  return { state: 'valid', normalized: v.Normalizado, distributor: v.Distribuidora?.Nombre ?? null, warning: v.Aviso ?? null }
}
