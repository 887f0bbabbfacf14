import { useQuery } from '@tanstack/react-query'
import { useEffect, useSyncExternalStore } from 'react'
import { recordReadCalls, shownRecord, type RecordRef } from '../../schemas/catalogue/records'
import type { CallIndex } from '../../schemas/catalogue/match'
import type { PresenceAnswer, Viewer } from '../../schemas/events'
import { loadCallIndex } from './call-catalogue'
import { api, type QueryParams } from './client'
import { liveConnection, recordKey, setViewers, subscribeConnection, subscribeViewers, viewersOf } from './live-events'

/** A tab says it still views the record this often; the BFF forgets it after ~45 s without. */
const HEARTBEAT_MS = 20_000

const reads = new WeakMap<CallIndex, ReturnType<typeof recordReadCalls>>()
const readsOf = (index: CallIndex) => {
  let r = reads.get(index)
  if (!r) reads.set(index, (r = recordReadCalls(index.calls)))
  return r
}

/**
 * The record a read shows when it is a detail screen's record (its kind's read call, as the
 * catalogue says): `/api/contract/id?codigo=X` → contrato X. Null for anything else.
 */
export function useShownRecord(endpoint: string, params: QueryParams): RecordRef | null {
  const index = useQuery({ queryKey: ['call-index'], queryFn: loadCallIndex, staleTime: Infinity, enabled: /^\/?api\//.test(endpoint) })
  if (!index.data || !endpoint) return null
  const match = index.data.find('GET', endpoint)
  return match ? shownRecord(match, params, readsOf(index.data)) : null
}

/**
 * While mounted with a record, this tab tells the BFF it views it (again every 20 s) and hears who
 * else does; unmounted, it says it left. Failures stay quiet (view-as, a lost stream): presence is
 * a courtesy, never in the way.
 */
export function useRecordPresence(record: RecordRef | null): Viewer[] {
  const connection = useSyncExternalStore(subscribeConnection, liveConnection)
  const key = record ? recordKey(record.entity, record.id) : null
  const entity = record?.entity
  const id = record?.id
  useEffect(() => {
    if (!key || !entity || !id || !connection) return
    const body = { entity, id, connection }
    let current = true
    const say = () =>
      api.post<PresenceAnswer>('/bff/presence', body, { quietUnauthenticated: true }).then(
        (answer) => current && setViewers(key, answer.viewers),
        () => undefined,
      )
    void say()
    const timer = setInterval(() => void say(), HEARTBEAT_MS)
    return () => {
      current = false
      clearInterval(timer)
      setViewers(key, [])
      void api.post('/bff/presence/leave', body, { quietUnauthenticated: true, keepalive: true }).catch(() => undefined)
    }
  }, [key, entity, id, connection])
  return useSyncExternalStore(subscribeViewers, () => viewersOf(key))
}
