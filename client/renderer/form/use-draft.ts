import { useEffect, useMemo, useRef } from 'react'
import type { DraftAnswer } from '../../../schemas/draft'
import type { Field } from '../../../schemas/screen'
import { ApiError, api } from '../../api/client'

/** A draft as the BFF keeps it: the values and when they were saved (ms since the epoch). */
export type SavedDraft = DraftAnswer

/** Typing pauses this long before the draft is saved. */
export const DRAFT_SAVE_DELAY_MS = 1000

const draftPath = (key: string) => `/bff/drafts/${encodeURIComponent(key)}`

/** A password is a secret and a file cannot travel as JSON: neither is ever kept in a draft. */
const NEVER_KEPT = new Set<string>(['password', 'file'])

function holdsFile(value: unknown): boolean {
  if (typeof Blob !== 'undefined' && value instanceof Blob) return true
  return Array.isArray(value) && value.some(holdsFile)
}

/**
 * The values a draft keeps: the form's own fields only, passwords and files left out. Used both
 * ways, so a stored draft can never put a value into a field it should not reach.
 */
export function draftValues(fields: readonly Field[], values: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {}
  for (const f of fields) {
    if (NEVER_KEPT.has(f.input)) continue
    const value = values[f.name]
    if (value === undefined || holdsFile(value)) continue
    kept[f.name] = value
  }
  return kept
}

/** The signed-in user's stored draft under `key`, or null when there is none. */
export async function loadDraft(key: string): Promise<SavedDraft | null> {
  try {
    const answer = await api.get<SavedDraft>(draftPath(key))
    return answer && typeof answer.values === 'object' && answer.values !== null ? answer : null
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null
    throw err
  }
}

/** Where drafts go: the BFF (tests give their own). */
export interface DraftTransport {
  save(key: string, values: Record<string, unknown>, keepalive: boolean): Promise<unknown>
  remove(key: string): Promise<unknown>
}

/** A 401 here stays quiet: a background save must not take the user away from the form. */
export const serverDrafts: DraftTransport = {
  save: (key, values, keepalive) => api.put(draftPath(key), values, { keepalive, quietUnauthenticated: true }),
  remove: (key) => api.delete(draftPath(key), undefined, { quietUnauthenticated: true }),
}

/**
 * Saves one form's draft in the background. Changes are debounced; requests go one at a time,
 * in order, so a slow save never lands after a newer one or after the delete. Nothing here is
 * awaited by typing, and a failed save loses nothing: the values stay in the form, and the
 * next change tries again. The user is told once per form.
 */
export class DraftSaver {
  private timer: ReturnType<typeof setTimeout> | null = null
  private pending: Record<string, unknown> | null = null
  private lastSaved: string | null = null
  private queue: Promise<void> = Promise.resolve()
  private warned = false

  constructor(
    private readonly key: string,
    private readonly transport: DraftTransport,
    private readonly onSaveFailed: () => void,
    private readonly delayMs = DRAFT_SAVE_DELAY_MS,
  ) {}

  /** The values changed: they are saved once typing has paused. */
  change(values: Record<string, unknown>): void {
    this.pending = values
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.flush(), this.delayMs)
  }

  /** Saves what waits now (a submit, leaving the form or the page). */
  flush(opts: { keepalive?: boolean } = {}): Promise<void> {
    this.cancelTimer()
    const values = this.pending
    this.pending = null
    if (!values) return this.queue
    return this.enqueue(async () => {
      const body = JSON.stringify(values)
      if (body === this.lastSaved) return
      try {
        await this.transport.save(this.key, values, opts.keepalive ?? false)
        this.lastSaved = body
      } catch {
        // Kept for the next flush (a submit, leaving the form) unless newer values wait already.
        if (this.pending === null) this.pending = values
        if (this.warned) return
        this.warned = true
        this.onSaveFailed()
      }
    })
  }

  /** Drops what waits and deletes the stored draft once any save in flight is done. False when the delete failed. */
  async clear(): Promise<boolean> {
    this.cancelTimer()
    this.pending = null
    let deleted = true
    await this.enqueue(async () => {
      try {
        await this.transport.remove(this.key)
        this.lastSaved = null
      } catch {
        deleted = false
      }
    })
    return deleted
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    // Each work catches its own failures; the catch only keeps one surprise from stopping the queue.
    this.queue = this.queue.then(work).catch(() => undefined)
    return this.queue
  }
}

/** The draft saver of a form that opted in (`key`), or null. What waits is saved when the form or the page is left. */
export function useDraftSaver(key: string | null, onSaveFailed: () => void, transport: DraftTransport = serverDrafts): DraftSaver | null {
  const failed = useRef(onSaveFailed)
  useEffect(() => {
    failed.current = onSaveFailed
  })
  const saver = useMemo(() => (key ? new DraftSaver(key, transport, () => failed.current()) : null), [key, transport])
  useEffect(() => {
    if (!saver) return
    // Keepalive: a reload or a closed tab would otherwise cancel the request.
    const onPageHide = () => void saver.flush({ keepalive: true })
    window.addEventListener('pagehide', onPageHide)
    return () => {
      window.removeEventListener('pagehide', onPageHide)
      void saver.flush()
    }
  }, [saver])
  return saver
}
