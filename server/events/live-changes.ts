import type { FastifyBaseLogger } from 'fastify'
import type { BusMessage } from './event-bus'
import type { EventHub } from './event-hub'
import type { RecordRules } from './record-rules'

/** What the proxy and the approvals need to announce a change that landed. */
export interface LiveChanges {
  rules: RecordRules
  /** Sends the change on, never failing nor delaying the request that made it. */
  published(log: Pick<FastifyBaseLogger, 'warn'>, change: Extract<BusMessage, { kind: 'change' }> | null): void
}

export function liveChanges(rules: RecordRules, hub: EventHub): LiveChanges {
  return {
    rules,
    published: (log, change) => {
      if (!change) return
      hub.changed(change).catch((err: Error) => log.warn({ event: 'event_publish_failed', kind: 'change', err: { message: err.message } }, 'live event not published'))
    },
  }
}
