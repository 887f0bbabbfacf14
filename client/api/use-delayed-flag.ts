import { useEffect, useState } from 'react'

/** Loading-flag clear delays of spec §9 (ms). */
export const LOADING_CLEAR_DELAY = { default: 10, slow: 2000, validator: 500, clientLookup: 1500 } as const

/** A loading flag that rises at once and clears only after `delayMs` (spec §9), so spinners do not flicker. */
export function useDelayedFlag(active: boolean, delayMs: number = LOADING_CLEAR_DELAY.default): boolean {
  const [flag, setFlag] = useState(active)
  useEffect(() => {
    if (active) {
      setFlag(true)
      return
    }
    const t = setTimeout(() => setFlag(false), delayMs)
    return () => clearTimeout(t)
  }, [active, delayMs])
  return flag
}
