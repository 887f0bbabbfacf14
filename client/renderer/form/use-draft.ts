import { useEffect, useRef } from 'react'

/** A saved draft: the values and when they were saved. */
export interface Draft {
  values: Record<string, unknown>
  savedAt: number
}

const PREFIX = 'portal.draft:'

export function draftKey(userId: number | undefined, screenId: string, formId: string): string {
  return `${PREFIX}${userId ?? 'anon'}:${screenId}:${formId}`
}

export function readDraft(key: string): Draft | null {
  try {
    const raw = localStorage.getItem(key)
    if (!raw) return null
    const draft = JSON.parse(raw) as Draft
    return draft && typeof draft.values === 'object' ? draft : null
  } catch {
    return null
  }
}

export function clearDraft(key: string): void {
  try {
    localStorage.removeItem(key)
  } catch {
    // storage unavailable
  }
}

/**
 * Keeps what the user types in this browser (localStorage), so a failed submit, a reload or a
 * session expiry loses nothing. Files are not kept (they cannot be stored); everything else is.
 */
export function useDraft(key: string | null, values: Record<string, unknown>, dirty: boolean): void {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(() => {
    if (!key || !dirty) return
    if (timer.current) clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      const storable = Object.fromEntries(Object.entries(values).filter(([, v]) => !(Array.isArray(v) && v.some((x) => x instanceof File))))
      try {
        localStorage.setItem(key, JSON.stringify({ values: storable, savedAt: Date.now() } satisfies Draft))
      } catch {
        // storage full or unavailable: the form still works, only without a draft
      }
    }, 300)
    return () => {
      if (timer.current) clearTimeout(timer.current)
    }
  }, [key, values, dirty])
}
