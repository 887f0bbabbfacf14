import { useEffect, useState } from 'react'

/**
 * Loading-flag clear delays of spec §9 (ms): `default` for every loading flag; `slow` for the
 * calls that compute over up to a year of hourly data (the battery calculation, the energy-price
 * export), whose button stays busy a while after the answer so a second click does not start a
 * second such computation;
 * `validator` for the server validators (IBAN, NIF, CUPS), called at once as the user types;
 * `clientLookup` for the client lookups of forms.
 */
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
