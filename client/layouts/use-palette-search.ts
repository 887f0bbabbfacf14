import { useEffect, useState } from 'react'
import type { Language } from '../../schemas/i18n'
import { SEARCH_UNAVAILABLE_HEADER, type SearchGroup, type SearchResult } from '../../schemas/search'
import { ApiError, send } from '../api/client'

/** Typing pauses this long before a search is sent: one request per pause, not per key. */
export const SEARCH_DEBOUNCE_MS = 120

export type PaletteSearch =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'done'; results: SearchResult[]; unavailable: SearchGroup[] }
  | { status: 'error'; message: string | null }

/**
 * `GET /bff/search` for what is typed: debounced, and an answer to an older text is dropped
 * (its request aborted), so what is shown always belongs to the text in the box.
 */
export function usePaletteSearch(text: string, lang: Language): PaletteSearch {
  const q = text.trim()
  const [state, setState] = useState<{ q: string; lang: Language; search: PaletteSearch }>({ q: '', lang, search: { status: 'idle' } })

  useEffect(() => {
    if (!q) return
    const controller = new AbortController()
    const timer = setTimeout(() => {
      send('GET', '/bff/search', { params: { q, lang }, signal: controller.signal })
        .then(async (res) => {
          const results = (await res.json()) as SearchResult[]
          const unavailable = (res.headers.get(SEARCH_UNAVAILABLE_HEADER) ?? '').split(',').filter(Boolean) as SearchGroup[]
          if (!controller.signal.aborted) setState({ q, lang, search: { status: 'done', results, unavailable } })
        })
        .catch((err: unknown) => {
          if (controller.signal.aborted) return
          setState({ q, lang, search: { status: 'error', message: err instanceof ApiError ? err.serverMessage : null } })
        })
    }, SEARCH_DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [q, lang])

  if (!q) return { status: 'idle' }
  // Until the answer for this very text (and language) is in, it is loading.
  return state.q === q && state.lang === lang ? state.search : { status: 'loading' }
}
