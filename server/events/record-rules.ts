import type { Endpoint } from '../../schemas/catalogue/endpoint'
import { recordReadCalls } from '../../schemas/catalogue/records'
import { callName, type CallIndex } from '../../schemas/catalogue/match'
import { isMasked } from '../../schemas/personal-data'
import type { CheckedCall } from '../catalogue/call-check'
import { recordKey } from '../audit/call-audit'
import type { BusMessage } from './event-bus'

/** A key events may carry: the shape the client and the presence calls accept. */
const SAFE_KEY = /^[A-Za-z0-9_.:-]{1,100}$/

/**
 * The events' reading of the endpoint catalogue: which records have a detail screen (presence),
 * and the change message of a catalogued mutation, with who may hear of it.
 */
export class RecordRules {
  /** Kind of record → its read call (`contrato` → `contract.detail`). */
  readonly reads: ReadonlyMap<string, Endpoint>

  constructor(catalogue: CallIndex) {
    this.reads = recordReadCalls(catalogue.calls)
  }

  /** The permission a user needs to see records of this kind (their read call's), if any. */
  readPermission(entity: string): string | undefined {
    return this.reads.get(entity)?.permission
  }

  /** The change a successful mutation made, for the bus; null for a call that names no record. */
  changeOf(brand: string, call: Endpoint, checked: CheckedCall, body: unknown): Extract<BusMessage, { kind: 'change' }> | null {
    return call.record ? this.change(brand, call, recordKey(call, checked, body)) : null
  }

  /**
   * The change message of `call` on the record keyed `key` (as the audit recorded it). A key
   * that is personal data (the audit keeps it masked) is left out: the event then reaches every
   * read of that kind of record instead of one.
   */
  change(brand: string, call: Pick<Endpoint, 'method' | 'path' | 'record' | 'permission'>, key: string | undefined): Extract<BusMessage, { kind: 'change' }> | null {
    if (!call.record) return null
    const entity = call.record.entity
    const id = key !== undefined && !isMasked(key) && SAFE_KEY.test(key) ? key : undefined
    const permission = this.readPermission(entity) ?? (this.reads.has(entity) ? undefined : call.permission)
    return { kind: 'change', brand, entity, ...(id !== undefined ? { id } : {}), call: callName(call), ...(permission ? { permission } : {}) }
  }
}
