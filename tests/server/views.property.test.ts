import fc from 'fast-check'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { View, ViewListAnswer } from '../../schemas/view'
import { SqliteSessionStore } from '../../server/session/sqlite-session-store'
import { TokenCipher } from '../../server/session/token-cipher'
import { SqliteViewStore } from '../../server/views/sqlite-view-store'
import { buildTestBff, type TestBff } from '../helpers/bff'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream'

/**
 * Who sees a view is a security boundary. Whatever the people (brand, groups, GESTORACCESS) and
 * the views (owner, brand, visibility, group), through the real routes and sessions:
 * `GET /bff/views` gives a person exactly the views the rule of issue 17 allows (their own;
 * those shared with a group they belong to; those published to their brand; never another
 * brand's), and withdrawing succeeds exactly for the owner, or a publisher for a brand view.
 */

const HOSTS = { verde: 'localhost', grupo: 'portal.grupoenergia.localhost' } as const
type BrandKey = keyof typeof HOSTS
const GROUPS = [1, 2, 3]

interface Person {
  id: number
  brand: BrandKey
  groups: number[]
  publisher: boolean
}

let upstream: FakeUpstream
let bff: TestBff
let sessions: SqliteSessionStore
let views: SqliteViewStore
let run = 0
const dir = path.join(os.tmpdir(), `portal-views-prop-${process.pid}-${Date.now()}`)

beforeAll(async () => {
  upstream = await startFakeUpstream()
  sessions = new SqliteSessionStore(path.join(dir, 's.db'), { idleMs: 3600_000, absoluteMs: 3600_000 }, { cipher: TokenCipher.random() })
  views = new SqliteViewStore(path.join(dir, 'v.db'))
  bff = await buildTestBff(upstream.url, { SESSION_CACHE_MS: '0' }, { sessionStore: sessions, viewStore: views })
}, 60_000)
afterAll(async () => {
  await bff?.close()
  await upstream?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** A signed-in session of `p`, as the gate finds it (a token far from expiry: no upstream call). */
async function cookieOf(p: Person): Promise<string> {
  const session = await sessions.create({
    userId: p.id,
    brand: p.brand,
    token: 'token-de-prueba',
    refreshToken: null,
    tokenExp: Math.floor(Date.now() / 1000) + 3600,
    user: {
      Id: p.id,
      UserName: `u${p.id}@portal.test`,
      Email: `u${p.id}@portal.test`,
      Nombre: `Persona ${p.id}`,
      Permisos: p.publisher ? [{ NombreNormalizado: 'GESTORACCESS' }] : [],
      Grupos: p.groups.map((g) => ({ Id: g, Nombre: `Grupo ${g}` })),
    },
  })
  return `portal_session=${session.id}`
}

/** The rule, as the issue words it. */
function allowed(v: View, p: Person): boolean {
  if (v.brand !== p.brand) return false
  return v.owner.id === p.id || v.visibility === 'brand' || (v.visibility === 'group' && p.groups.includes(v.groupId!))
}
const mayWithdraw = (v: View, p: Person) => allowed(v, p) && (v.owner.id === p.id || (v.visibility === 'brand' && p.publisher))

const person = fc.record({ brand: fc.constantFrom<BrandKey>('verde', 'grupo'), groups: fc.subarray(GROUPS), publisher: fc.boolean() })
const viewSpec = fc.record({ owner: fc.nat(), brand: fc.constantFrom<BrandKey>('verde', 'grupo'), visibility: fc.constantFrom('private', 'group', 'brand') as fc.Arbitrary<View['visibility']>, group: fc.constantFrom(...GROUPS) })

describe('visibility of views (property)', () => {
  it('each person lists exactly the views the rule allows, and withdraws exactly those it lets them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(person, { minLength: 1, maxLength: 5 }), fc.array(viewSpec, { maxLength: 8 }), fc.nat(), fc.nat(), async (specs, viewSpecs, who, which) => {
        run++
        const table = `t${run}`
        const people: Person[] = specs.map((s, i) => ({ ...s, id: 1000 * run + i }))
        const made: View[] = viewSpecs.map((s, i) => {
          const owner = people[s.owner % people.length]!
          return {
            id: `00000000-0000-4000-8000-${String(run * 100 + i).padStart(12, '0')}`,
            name: `Vista ${i}`,
            screen: 'contratos-listado',
            table,
            filters: {},
            sort: null,
            visibility: s.visibility,
            ...(s.visibility === 'group' ? { groupId: s.group, groupName: `Grupo ${s.group}` } : {}),
            owner: { id: owner.id, name: `Persona ${owner.id}` },
            brand: s.brand,
            version: 1,
            updatedAt: new Date().toISOString(),
          }
        })
        for (const v of made) expect(await views.create(v)).toBe('ok')
        const cookies = await Promise.all(people.map(cookieOf))
        for (const [i, p] of people.entries()) {
          const res = await request(bff.app.server).get(`/bff/views?screen=contratos-listado&table=${table}`).set('Host', HOSTS[p.brand]).set('Cookie', cookies[i]!).expect(200)
          const seen = (res.body as ViewListAnswer).views
          expect(seen.map((v) => v.id).sort()).toEqual(made.filter((v) => allowed(v, p)).map((v) => v.id).sort())
          for (const v of seen) expect(v.editable).toBe(mayWithdraw(made.find((m) => m.id === v.id)!, p))
        }
        if (made.length === 0) return
        const p = people[who % people.length]!
        const target = made[which % made.length]!
        const res = await request(bff.app.server).delete(`/bff/views/${target.id}`).set('Host', HOSTS[p.brand]).set('X-CSRF', '1').set('Cookie', cookies[who % people.length]!)
        expect(res.status).toBe(mayWithdraw(target, p) ? 204 : allowed(target, p) ? 403 : 404)
        expect((await views.get(target.id)) === null).toBe(res.status === 204)
      }),
      { numRuns: 60 },
    )
  }, 120_000)
})
