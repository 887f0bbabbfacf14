import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { ChangeEvent, HelloEvent, PresenceEvent, Viewer } from '../../schemas/events'
import { refreshShown, refreshAllShown } from './live-refresh'

/**
 * The one live-events connection of the signed-in app (`GET /bff/events`): change events refresh
 * the lists and detail screens that show the record, and reach the forms editing it; presence
 * events say who else views a record. Reconnects with growing waits; closed on sign-out (the
 * signed-in layout that opens it goes away).
 */

const FIRST_RETRY_MS = 1_000
const MAX_RETRY_MS = 30_000

type Listener = () => void

/** This tab's connection id (from the stream's `hello`), null while not connected. */
let connection: string | null = null
const connectionListeners = new Set<Listener>()
const setConnection = (id: string | null) => {
  connection = id
  for (const l of connectionListeners) l()
}
export const liveConnection = () => connection
export function subscribeConnection(listener: Listener): () => void {
  connectionListeners.add(listener)
  return () => connectionListeners.delete(listener)
}

const changeListeners = new Set<(change: ChangeEvent) => void>()
/** Hears every change event (a form editing the record decides what it means for it). */
export function onRecordChange(listener: (change: ChangeEvent) => void): () => void {
  changeListeners.add(listener)
  return () => changeListeners.delete(listener)
}

/** Who else views each record (`entity:id`), as the last answer or event said. */
const NOBODY: Viewer[] = []
const viewers = new Map<string, Viewer[]>()
const viewerListeners = new Set<Listener>()
export const recordKey = (entity: string, id: string) => `${entity}:${id}`
export function setViewers(key: string, list: Viewer[]): void {
  if (list.length === 0) viewers.delete(key)
  else viewers.set(key, list)
  for (const l of viewerListeners) l()
}
export const viewersOf = (key: string | null): Viewer[] => (key ? (viewers.get(key) ?? NOBODY) : NOBODY)
export function subscribeViewers(listener: Listener): () => void {
  viewerListeners.add(listener)
  return () => viewerListeners.delete(listener)
}

const data = <T>(e: Event): T | null => {
  try {
    return JSON.parse((e as MessageEvent<string>).data) as T
  } catch {
    return null
  }
}

/** Keeps the stream open while the signed-in layout is mounted. */
export function useLiveEvents(): void {
  const client = useQueryClient()
  useEffect(() => {
    // Not in every environment (unit tests' DOM): nothing live there.
    if (typeof EventSource === 'undefined') return
    let source: EventSource | null = null
    let timer: ReturnType<typeof setTimeout> | undefined
    let failures = 0
    let connectedBefore = false
    const open = () => {
      source = new EventSource('/bff/events')
      source.addEventListener('hello', (e) => {
        const hello = data<HelloEvent>(e)
        if (!hello) return
        failures = 0
        // Changes made while cut off were missed: what is on screen is read again.
        if (connectedBefore) void refreshAllShown(client)
        connectedBefore = true
        setConnection(hello.connection)
      })
      source.addEventListener('change', (e) => {
        const change = data<ChangeEvent>(e)
        if (!change) return
        void refreshShown(client, change)
        for (const l of changeListeners) l(change)
      })
      source.addEventListener('presence', (e) => {
        const p = data<PresenceEvent>(e)
        if (p) setViewers(recordKey(p.entity, p.id), p.viewers)
      })
      // The browser's own retry ignores a refusal (401, 429) and never waits longer: ours does.
      source.onerror = () => {
        source?.close()
        setConnection(null)
        const wait = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failures++) * (0.75 + Math.random() / 2)
        timer = setTimeout(open, wait)
      }
    }
    open()
    return () => {
      clearTimeout(timer)
      source?.close()
      setConnection(null)
      viewers.clear()
    }
  }, [client])
}
