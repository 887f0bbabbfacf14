import { startTransition, useEffect, useState, type FocusEvent } from 'react'
import { flushSync } from 'react-dom'
import { whenIdle } from './lazy-component'

/**
 * Whether a part of a screen drawn with fields at rest (ui/plain/at-rest: PrimeReact's look,
 * none of its code) has its live fields yet. It wakes once the screen is painted and the
 * browser is idle, or at once when the pointer or the focus reaches it, before the press or
 * the key that uses a field lands. Spread `reach` on the part's element; `wake` is for a
 * control elsewhere that uncovers it.
 */
export function useAwakeOnReach() {
  const [awake, setAwake] = useState(false)
  // Woken when idle, the fields render in a transition: a press meanwhile is not kept waiting.
  useEffect(() => (awake ? undefined : whenIdle(() => startTransition(() => setAwake(true)))), [awake])
  const wake = () => {
    if (!awake) flushSync(() => setAwake(true))
  }
  return {
    awake,
    wake,
    reach: {
      onPointerOver: wake,
      // A field at rest that took the focus is gone once the part wakes: the live field in
      // its place (the same place among the part's stops) takes the focus.
      onFocus: (e: FocusEvent<HTMLElement>) => {
        if (awake) return
        const at = tabStops(e.currentTarget).indexOf(e.target)
        wake()
        if (!e.target.isConnected) tabStops(e.currentTarget)[at]?.focus()
      },
    },
  }
}

const tabStops = (root: HTMLElement): HTMLElement[] => [...root.querySelectorAll<HTMLElement>('input:not([tabindex="-1"]), button:not([tabindex="-1"])')]
