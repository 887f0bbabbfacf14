import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { LiveEvent } from '../../schemas/events'
import { MemoryEventBus, parseBusMessage } from '../../server/events/event-bus'
import { EventHub, type LiveConnection } from '../../server/events/event-hub'
import { MemoryPresenceStore } from '../../server/events/presence-store'

/**
 * The boundary of live events, over any mix of tabs: a change reaches exactly the tabs of its
 * brand whose user holds its permission, with nothing but its type, kind, key and call (no key
 * for a user the upstream narrows to part of the brand, an agent); presence
 * names exactly the other users viewing the record in that brand, never the viewer themselves.
 */

const BRANDS = ['verde', 'grupo', 'limpia'] as const
const PERMISSIONS = ['GESTORACCESS', 'VERRENOVACIONES'] as const
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined }
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0))
}

const tab = fc.record({
  brand: fc.constantFrom(...BRANDS),
  userId: fc.integer({ min: 1, max: 6 }),
  permissions: fc.subarray([...PERMISSIONS]),
  scoped: fc.boolean(),
})

function hubWith(tabs: { brand: string; userId: number; permissions: string[]; scoped: boolean }[]) {
  const hub = new EventHub({ bus: new MemoryEventBus(), presence: new MemoryPresenceStore(), log: silent, maxPerUser: 100, presenceTtlMs: 60_000, sweepMs: 60_000 })
  const heard = tabs.map(() => [] as LiveEvent[])
  const connections: LiveConnection[] = tabs.map((t, i) => ({
    id: `tab-${i}-xxxxxxxxxxxxxxxx`,
    userId: t.userId,
    brand: t.brand,
    permissions: new Set(t.permissions),
    scoped: t.scoped,
    send: (e) => heard[i]!.push(e),
    end: () => undefined,
  }))
  for (const c of connections) hub.add(c)
  return { hub, heard, connections }
}

describe('live events', () => {
  it('a change reaches exactly the tabs of its brand whose user may read such records, and says nothing else (no record to an agent)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(tab, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(...BRANDS),
        fc.option(fc.constantFrom(...PERMISSIONS), { nil: undefined }),
        fc.option(fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/), { nil: undefined }),
        async (tabs, brand, permission, id) => {
          const { hub, heard } = hubWith(tabs)
          await hub.changed({ kind: 'change', brand, entity: 'contrato', call: 'PUT api/contract/update', ...(id ? { id } : {}), ...(permission ? { permission } : {}) })
          await settle()
          tabs.forEach((t, i) => {
            const should = t.brand === brand && (!permission || t.permissions.includes(permission))
            const changes = heard[i]!.filter((e) => e.type === 'change')
            expect(changes).toHaveLength(should ? 1 : 0)
            if (should) expect(changes[0]).toEqual({ type: 'change', entity: 'contrato', call: 'PUT api/contract/update', ...(id && !t.scoped ? { id } : {}) })
          })
          hub.close()
        },
      ),
      { numRuns: 60 },
    )
  })

  it('presence names exactly the other users of the brand viewing the record, never the viewer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(tab, { minLength: 1, maxLength: 8 }), async (tabs) => {
        const { hub, heard, connections } = hubWith(tabs)
        const nameOf = (userId: number) => `Persona ${userId}`
        // Every tab views record 7 of its brand; the last answer or event each got is what it shows.
        const shown = new Map<number, string[]>()
        for (const [i, c] of connections.entries()) {
          const answer = await hub.join(c.brand, { entity: 'contrato', id: '7' }, { connection: c.id, userId: c.userId, name: nameOf(c.userId) })
          shown.set(i, answer.map((v) => v.name))
          await settle()
        }
        tabs.forEach((t, i) => {
          const last = heard[i]!.filter((e) => e.type === 'presence').at(-1)
          const names = last && last.type === 'presence' ? last.viewers.map((v) => v.name) : shown.get(i)!
          const expected = [...new Set(tabs.filter((o) => o.brand === t.brand && o.userId !== t.userId).map((o) => nameOf(o.userId)))].sort((a, b) => a.localeCompare(b, 'es'))
          expect(names).toEqual(expected)
          expect(names).not.toContain(nameOf(t.userId))
        })
        hub.close()
      }),
      { numRuns: 60 },
    )
  })

  it('reads back from the wire only well-formed bus messages', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const m = parseBusMessage(raw)
        if (m) expect(['change', 'presence']).toContain(m.kind)
      }),
    )
    expect(parseBusMessage(JSON.stringify({ kind: 'change', brand: 'verde', entity: 'contrato', call: 'PUT x' }))).not.toBeNull()
    expect(parseBusMessage(JSON.stringify({ kind: 'presence', brand: 'verde', entity: 'contrato', id: '1', connection: 'c', userId: '1', joined: true }))).toBeNull()
  })
})
