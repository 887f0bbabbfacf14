import { useSyncExternalStore } from 'react'
import type { AfterSpec } from '../../../schemas/screen'

/**
 * The secret an action shows once (a new or rotated API key), held above the screens: the row
 * or button that asked for it may hide itself or be redrawn when its list refreshes, and the
 * secret must stay until the user closes it. `RevealHost` (in the app shell) draws it.
 */

export interface Revealed {
  value: string
  spec: NonNullable<AfterSpec['reveal']>
}

let current: Revealed | null = null
const listeners = new Set<() => void>()

function set(next: Revealed | null): void {
  current = next
  for (const listener of listeners) listener()
}

export function showRevealed(value: string, spec: Revealed['spec']): void {
  set({ value, spec })
}

export function closeRevealed(): void {
  set(null)
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useRevealed(): Revealed | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  )
}
