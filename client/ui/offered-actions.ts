import { useEffect, useId, useRef, useSyncExternalStore } from 'react'

/**
 * The actions the screen on display offers (page and table toolbars, detail headers): the
 * renderer registers each while it is on screen, and the command palette lists them in its
 * «Acciones» group. General on purpose: any screen, shipped or built in the studio, fills it.
 */
export interface OfferedAction {
  /** Unique on the screen (owner and action id). */
  key: string
  label: string
  icon?: string
  /** Does what clicking the action's button does. */
  run: () => void
}

const entries = new Map<string, OfferedAction>()
const listeners = new Set<() => void>()
let snapshot: OfferedAction[] = []

function changed() {
  snapshot = [...entries.values()]
  for (const l of listeners) l()
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Offers an action while the calling component is mounted (null: nothing offered now). */
export function useOfferAction(action: OfferedAction | null): void {
  const run = useRef<() => void>(() => undefined)
  // Two components may offer the same action id (two detail headers): each keeps its own entry.
  const instance = useId()
  useEffect(() => {
    if (action) run.current = action.run
  })
  const key = action ? `${action.key}${instance}` : undefined
  const label = action?.label
  const icon = action?.icon
  useEffect(() => {
    if (key === undefined || label === undefined) return
    entries.set(key, { key, label, icon, run: () => run.current() })
    changed()
    return () => {
      entries.delete(key)
      changed()
    }
  }, [key, label, icon])
}

/** What the screen on display offers now. */
export function useOfferedActions(): OfferedAction[] {
  return useSyncExternalStore(subscribe, () => snapshot, () => snapshot)
}
