import { createContext, useContext, useEffect, useRef } from 'react'

/** What a link's intent does (the signed-in layout prefetches where it leads); nothing elsewhere. */
const LinkIntent = createContext<(path: string) => void>(() => undefined)

export const LinkIntentProvider = LinkIntent.Provider

/** How long the pointer rests on a link before that counts as intent: passing over a list's rows asks for nothing. */
export const INTENT_REST_MS = 80

/**
 * The handlers that tell a link's intent: the pointer resting on it for INTENT_REST_MS, or the
 * keyboard focus reaching it. For links repeated down a list (a row's code), where a pointer
 * crossing the rows must not prefetch each.
 */
export function useLinkIntent(path: string | null) {
  const intent = useContext(LinkIntent)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const cancel = () => clearTimeout(timer.current)
  useEffect(() => cancel, [])
  if (!path) return {}
  return {
    onMouseEnter: () => {
      cancel()
      timer.current = setTimeout(() => intent(path), INTENT_REST_MS)
    },
    onMouseLeave: cancel,
    onFocus: () => intent(path),
  }
}
