import Type from 'typebox'

/**
 * The live events of `GET /bff/events` (server-sent events, one `event:` name per type) and the
 * presence calls of a detail screen. Events carry no personal values: a record is named by its
 * catalogue entity and key (left out when the key itself is personal data), people by name.
 */

/** A record's key as events and presence name it: `contrato` + `CT-2026-000123`. */
const RecordId = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$' })
const Entity = Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z][A-Za-z0-9]*$' })
/** The id of one events connection (one browser tab), told to it in its `hello` event. */
const ConnectionId = Type.String({ minLength: 16, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })

/** `POST /bff/presence`: this tab is viewing this record (sent again every ~20 s while it does). */
export const PresenceBody = Type.Object({ entity: Entity, id: RecordId, connection: ConnectionId }, { additionalProperties: false })
export type PresenceBody = Type.Static<typeof PresenceBody>

/** Someone else viewing a record: their name only. */
export const Viewer = Type.Object({ name: Type.String() }, { additionalProperties: false })
export type Viewer = Type.Static<typeof Viewer>

/** The answer of `POST /bff/presence`: who else views the record now. */
export const PresenceAnswer = Type.Object({ viewers: Type.Array(Viewer) }, { additionalProperties: false })
export type PresenceAnswer = Type.Static<typeof PresenceAnswer>

/** `event: hello`, first of every connection: the id the tab names in its presence calls. */
export interface HelloEvent {
  type: 'hello'
  connection: string
}

/** `event: change`: a catalogued mutation of this record succeeded (or a held one landed). `id` is absent when the key is personal data. */
export interface ChangeEvent {
  type: 'change'
  entity: string
  id?: string
  /** `METHOD path` of the catalogued call. */
  call: string
}

/** `event: presence`: who else views a record this tab views (empty: nobody now). */
export interface PresenceEvent {
  type: 'presence'
  entity: string
  id: string
  viewers: Viewer[]
}

export type LiveEvent = HelloEvent | ChangeEvent | PresenceEvent
