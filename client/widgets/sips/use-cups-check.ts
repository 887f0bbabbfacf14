import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { api } from '../../api/client'
import { LOADING_CLEAR_DELAY } from '../../api/use-delayed-flag'
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

/** The CUPS validator called as the user types (debounced, spec §9: 500 ms for validators). */
export function useCupsCheck(value: string): CupsCheck {
  const text = normalizeCups(value)
  const [debounced, setDebounced] = useState(text)
  useEffect(() => {
    const t = setTimeout(() => setDebounced(text), LOADING_CLEAR_DELAY.validator)
    return () => clearTimeout(t)
  }, [text])
  const query = useQuery({
    queryKey: ['validators', 'cups', debounced],
    queryFn: ({ signal }) => api.get<CupsValidation>('/api/validators/cups', { params: { cups: debounced }, signal }),
    enabled: debounced.length > 0,
    staleTime: Infinity,
  })
  if (!text) return { state: 'idle' }
  if (text !== debounced || query.isPending) return { state: 'checking' }
  if (query.isError || !query.data) return { state: 'unavailable' }
  const v = query.data
  if (!v.Valido) return { state: 'invalid', message: v.Motivo ?? messageIn(messages, 'single.invalid') }
  return { state: 'valid', normalized: v.Normalizado, distributor: v.Distribuidora?.Nombre ?? null, warning: v.Aviso ?? null }
}
