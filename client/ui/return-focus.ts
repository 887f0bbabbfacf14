import { useEffect, useRef, useState } from 'react'

/** An element focus can go back to: still on the page, not the page itself, not disabled. */
function focusable(el: Element | null | undefined): el is HTMLElement {
  return el instanceof HTMLElement && el.isConnected && el !== document.body && !el.matches(':disabled')
}

/**
 * Focus goes back, when the calling dialog closes, to what had it when the dialog opened; if
 * that is gone (or was a button disabled while it worked), to `fallback()` (the button that
 * opened the dialog), else to the page's content. PrimeReact's Dialog does so only for a dialog
 * it hides itself; the portal's dialogs close by leaving the page, which drops the focus on the
 * page's body and sends a keyboard user back to the top. Where something took the focus on its
 * way (a navigation, another dialog), it stays there.
 */
export function useReturnFocus(fallback?: () => HTMLElement | null | undefined): void {
  // Read as the dialog first renders: its own focus handling has not run yet.
  const [opener] = useState(() => document.activeElement)
  const latestFallback = useRef(fallback)
  useEffect(() => {
    latestFallback.current = fallback
  })
  useEffect(
    () => () => {
      // The dialog has left the page: a focus it held fell back to the body.
      if (focusable(document.activeElement)) return
      const target = focusable(opener) ? opener : latestFallback.current?.()
      const to = focusable(target) ? target : document.getElementById('main')
      to?.focus({ preventScroll: true })
    },
    [opener],
  )
}
