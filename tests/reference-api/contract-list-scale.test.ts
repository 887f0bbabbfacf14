import type Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildReferenceApi, type ReferenceApi } from '../../server/reference-api/app'
import { loadReferenceApiConfig } from '../../server/reference-api/config'
import { validateCups, validateIban, validateNif } from '../../server/reference-api/domain/identifiers'
import { iterateList } from '../../server/reference-api/lib/paging'
import { agentSubtreeIds } from '../../server/reference-api/lib/visibility'
import { sendXlsx } from '../../server/reference-api/lib/xlsx'
import { CONTRACT_COLUMNS, CONTRACT_FROM } from '../../server/reference-api/routes/business/contracts'
import { ApiCaller } from '../helpers/api-caller'
import { TEST_JWT_SECRET } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW, listQuery, readXlsx } from './business-support'
import type { Paged } from '../../schemas/business/paged'

/** Seeding a fresh database computes every invoice hour by hour: seconds alone, more on a busy machine. */
const SEED_AGAIN_TIMEOUT_MS = 90_000

/**
 * Data at scale: `SEED_CONTRACTS` tops every brand up with generated contracts, the list pages
 * them through lib/keyed-page.ts, and exports stream. Seeded here at 2 000 contracts per brand
 * (the benchmark, `npm run bench:data`, measures 100 000).
 */
const PER_BRAND = 2000
const SEED_DATE = new Date('2026-11-01T10:00:00Z')

interface Running {
  api: ReferenceApi
  url: string
  dir: string
}

async function seededApi(perBrand: number): Promise<Running> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-scale-'))
  const config = loadReferenceApiConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', JWT_SECRET: TEST_JWT_SECRET, SEED_CONTRACTS: String(perBrand) })
  const api = await buildReferenceApi(config, { seedDate: SEED_DATE, now: () => NOW })
  const url = await api.app.listen({ host: '127.0.0.1', port: 0 })
  return { api, url, dir }
}

async function stop(running: Running | undefined) {
  if (!running) return
  await running.api.app.close()
  fs.rmSync(running.dir, { recursive: true, force: true })
}

let scale: Running
let db: Database.Database
let admin: ApiCaller
let marcaId: number

beforeAll(async () => {
  scale = await seededApi(PER_BRAND)
  db = scale.api.db
  admin = await ApiCaller.signIn(scale.url, ADMIN)
  marcaId = (db.prepare("SELECT id FROM marcas WHERE dominio = 'energiaverde.es'").get() as { id: number }).id
})
afterAll(async () => {
  await stop(scale)
})

describe('SEED_CONTRACTS: contracts at scale', () => {
  it('tops every brand up to the count asked, with valid, unique identifiers', () => {
    const perBrand = db.prepare('SELECT marca_id, COUNT(*) AS n FROM contratos GROUP BY marca_id').all() as { n: number }[]
    expect(perBrand.map((r) => r.n)).toEqual([PER_BRAND, PER_BRAND, PER_BRAND])
    for (const { nif } of db.prepare('SELECT nif FROM clientes').all() as { nif: string }[]) expect(validateNif(nif).valid, nif).toBe(true)
    for (const { iban } of db.prepare('SELECT iban FROM clientes UNION ALL SELECT iban FROM contratos').all() as { iban: string }[]) expect(validateIban(iban).valid, iban).toBe(true)
    const cups = db.prepare('SELECT cups FROM puntos_suministro').pluck().all() as string[]
    for (const c of cups) expect(validateCups(c).valid, c).toBe(true)
    expect(new Set(cups).size).toBe(cups.length)
    const dupNifs = db.prepare('SELECT COUNT(*) FROM (SELECT marca_id, nif FROM clientes GROUP BY marca_id, nif HAVING COUNT(*) > 1)').pluck().get()
    expect(dupNifs).toBe(0)
    // Codes carry the sign-up year, and a contract's client and supply point are of its brand.
    const badCodes = db.prepare('SELECT COUNT(*) FROM contratos WHERE substr(codigo, 4, 4) <> substr(fecha_alta, 1, 4)').pluck().get()
    expect(badCodes).toBe(0)
    const foreign = db
      .prepare('SELECT COUNT(*) FROM contratos c JOIN clientes cl ON cl.id = c.cliente_id JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id WHERE cl.marca_id <> c.marca_id OR ps.marca_id <> c.marca_id')
      .pluck()
      .get()
    expect(foreign).toBe(0)
  })

  it('gives each added contract coherent dates and a state it could have reached (the demo ones keep their history)', () => {
    const added = 'NOT EXISTS (SELECT 1 FROM contrato_historial h WHERE h.contrato_id = c.id)'
    expect(db.prepare(`SELECT COUNT(*) FROM contratos c WHERE ${added}`).pluck().get()).toBe(3 * (PER_BRAND - 650))
    const incoherent = db
      .prepare(
        `SELECT codigo, estado FROM contratos c WHERE ${added} AND (
           fecha_alta > '2026-11-01' OR fecha_firma < fecha_alta OR fecha_activacion <= fecha_firma OR fecha_baja <= fecha_activacion
           OR (estado IN ('activo', 'baja', 'modificacion_en_curso')) <> (fecha_activacion IS NOT NULL)
           OR (estado = 'baja') <> (fecha_baja IS NOT NULL)
           OR (estado = 'rechazado') <> (motivo_rechazo IS NOT NULL)
           OR (estado IN ('activo', 'modificacion_en_curso')) <> (fecha_proxima_renovacion IS NOT NULL)
           OR fecha_proxima_renovacion < '2026-11-01'
           OR (estado IN ('enviado_distribuidora', 'aceptado', 'rechazado', 'activo', 'baja', 'modificacion_en_curso') AND validado = 0)
           OR (estado IN ('borrador', 'pendiente_firma', 'firmado', 'anulado') AND validado = 1)
           OR actualizado_en < creado_en)`,
      )
      .all()
    expect(incoherent).toEqual([])
    const states = db.prepare('SELECT DISTINCT estado FROM contratos').pluck().all()
    expect(states.length).toBeGreaterThanOrEqual(10)
  })

  it('draws the same contracts for the same count and day', async () => {
    const again = await seededApi(PER_BRAND)
    try {
      const digest = (d: Database.Database) =>
        createHash('sha256')
          .update(JSON.stringify(d.prepare('SELECT c.*, cl.nif, cl.titular, ps.cups FROM contratos c JOIN clientes cl ON cl.id = c.cliente_id JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id ORDER BY c.id').raw().all()))
          .digest('hex')
      expect(digest(again.api.db)).toBe(digest(db))
    } finally {
      await stop(again)
    }
  }, SEED_AGAIN_TIMEOUT_MS)
})

/** The list as one plain query with the documented semantics: the answer every page must give. */
function referencePage(opts: { sortColumn?: string; sortOrder?: 'asc' | 'desc'; filters?: [string, string][]; pageIndex?: number; pageSize?: number; agentIds?: number[] }) {
  const where = ['c.marca_id = ?']
  const params: unknown[] = [marcaId]
  if (opts.agentIds) {
    where.push(`c.agente_id IN (${opts.agentIds.map(() => '?').join(', ')})`)
    params.push(...opts.agentIds)
  }
  for (const [column, query] of opts.filters ?? []) {
    const spec = CONTRACT_COLUMNS[column]!
    if (spec.type === 'text') {
      where.push(`unaccent(${spec.sql}) LIKE '%' || unaccent(?) || '%'`)
      params.push(query)
    } else if (spec.type === 'enum') {
      const values = query.split(',')
      where.push(`${spec.sql} IN (${values.map(() => '?').join(', ')})`)
      params.push(...values)
    } else {
      const [from, to] = query.split('|')
      const expr = spec.type === 'date' ? `date(${spec.sql})` : spec.sql
      if (from) {
        where.push(`${expr} >= ?`)
        params.push(spec.type === 'date' ? from : Number(from))
      }
      if (to) {
        where.push(`${expr} <= ?`)
        params.push(spec.type === 'date' ? to : Number(to))
      }
    }
  }
  const spec = opts.sortColumn ? CONTRACT_COLUMNS[opts.sortColumn]! : undefined
  const sort = spec ? `${spec.type === 'text' ? `unaccent(${spec.sql})` : spec.sql} ${opts.sortOrder === 'desc' ? 'DESC' : 'ASC'}, ` : ''
  const pageSize = opts.pageSize ?? 10
  const whereSql = where.join(' AND ')
  return {
    total: db.prepare(`SELECT COUNT(*) ${CONTRACT_FROM} WHERE ${whereSql}`).pluck().get(...params) as number,
    ids: db
      .prepare(`SELECT c.id ${CONTRACT_FROM} WHERE ${whereSql} ORDER BY ${sort}c.fecha_alta DESC, c.codigo DESC LIMIT ${pageSize} OFFSET ${(opts.pageIndex ?? 0) * pageSize}`)
      .pluck()
      .all(...params) as number[],
  }
}

async function expectSamePage(api: ApiCaller, opts: Parameters<typeof referencePage>[0]) {
  const res = await api.get<Paged<{ Id: number }>>('/api/contract', listQuery(opts))
  expect(res.status, res.text).toBe(200)
  const expected = referencePage(opts)
  const label = JSON.stringify(opts)
  expect(res.body.TotalCount, label).toBe(expected.total)
  expect(res.body.Items.map((r) => r.Id), label).toEqual(expected.ids)
}

describe('GET /api/contract at scale: every page equals the plain query', () => {
  const sortable = Object.entries(CONTRACT_COLUMNS)
    .filter(([, spec]) => spec.sortable !== false)
    .map(([name]) => name)

  it('every sortable column, both ways, on the first, a middle and the last page', async () => {
    for (const sortColumn of sortable) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        for (const pageIndex of [0, 93, 199]) await expectSamePage(admin, { sortColumn, sortOrder, pageIndex })
      }
    }
  })

  it('text, select, catalog-name, agent, number and date filters, alone and with sorts', async () => {
    const cases: Parameters<typeof referencePage>[0][] = [
      { filters: [['Titular', 'garcia']] },
      { filters: [['Titular', 'Núñez']], sortColumn: 'Municipio', sortOrder: 'desc' },
      { filters: [['Estado', 'activo,baja']], sortColumn: 'Titular' },
      { filters: [['Estado', 'rechazado']], sortColumn: 'Cups', sortOrder: 'desc', pageIndex: 2 },
      { filters: [['EstadoNombre', 'firma']], sortColumn: 'EstadoNombre' },
      { filters: [['FechaAlta', '2026-01-01|2026-03-31']], sortColumn: 'Provincia', sortOrder: 'desc' },
      { filters: [['FechaActivacion', '|2025-06-30']], sortColumn: 'Nif' },
      { filters: [['ProvinciaId', '28,8']], sortColumn: 'CodigoPostal' },
      { filters: [['Provincia', 'á']], sortColumn: 'Agente', sortOrder: 'desc' },
      { filters: [['Agente', 'a']], sortColumn: 'AgenteCodigo' },
      { filters: [['AgenteCodigo', '00']] },
      { filters: [['Tarifa', '3.0TD,6.1TD']], sortColumn: 'Tarifa', sortOrder: 'desc' },
      { filters: [['Cups', 'ES0021']], sortColumn: 'Distribuidora' },
      { filters: [['CodigoContrato', '2025-00']], sortColumn: 'TipoTitular', sortOrder: 'desc' },
      { filters: [['ConsumoAnual', '2000|5000'], ['Modalidad', 'indexado']], sortColumn: 'ConsumoAnual' },
      { filters: [['Municipio', 'sevilla'], ['Estado', 'activo']], sortColumn: 'FechaAlta', sortOrder: 'desc' },
      { filters: [['Titular', 'zzzz-nadie']] },
    ]
    for (const c of cases) await expectSamePage(admin, c)
  })

  it("a sales channel's pages: only its team's contracts, in the same order", async () => {
    const agente = await ApiCaller.signIn(scale.url, AGENTE)
    const linked = db.prepare("SELECT a.id FROM agentes a JOIN usuarios u ON u.id = a.usuario_id WHERE u.email = 'agente@portal.test' AND a.marca_id = ?").pluck().get(marcaId) as number
    const agentIds = agentSubtreeIds(db, linked, marcaId)
    for (const c of [{}, { sortColumn: 'Titular', sortOrder: 'desc' as const, pageIndex: 3 }, { filters: [['Estado', 'activo']] as [string, string][], sortColumn: 'Provincia' }]) {
      await expectSamePage(agente, { ...c, agentIds })
    }
  })
})

describe('GET /api/contract/export at scale', () => {
  it('sends every matching row, in the list order, as the file the client expects, without a length', async () => {
    const res = await admin.get('/api/contract/export', listQuery({ pageSize: -1, sortColumn: 'Titular', sortOrder: 'desc' }))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(res.headers.get('content-disposition')).toContain('filename="contratos-2026-11-21.xlsx"')
    expect(res.headers.get('content-length')).toBeNull()
    const { headers, rows } = await readXlsx(res.bytes)
    expect(headers[0]).toBe('Código de contrato')
    const expected = referencePage({ sortColumn: 'Titular', sortOrder: 'desc', pageSize: PER_BRAND })
    const byId = new Map(expected.ids.map((id, i) => [id, i]))
    const ordered = db.prepare(`SELECT id, codigo FROM contratos WHERE id IN (${expected.ids.join(', ')})`).all() as { id: number; codigo: string }[]
    ordered.sort((a, b) => byId.get(a.id)! - byId.get(b.id)!)
    expect(rows).toHaveLength(PER_BRAND)
    expect(rows.map((r) => r[0])).toEqual(ordered.map((r) => r.codigo))
  })

  it('reads its rows on a connection of its own: the API keeps writing while an export is open', () => {
    const rows = iterateList<{ Id: number }>(db, { select: 'SELECT c.id AS Id FROM contratos c', from: 'FROM contratos c', columns: { Id: { sql: 'c.id', type: 'number' } }, defaultOrder: 'c.id' }, {
      pageIndex: 0,
      pageSize: -1,
      sortColumn: undefined,
      sortOrder: 'asc',
      filters: [],
    })
    expect(rows.next().value).toMatchObject({ Id: 1 })
    // The same connection would refuse: "This database connection is busy executing a query".
    expect(() => db.prepare("UPDATE meta SET value = value WHERE key = 'seeded_at'").run()).not.toThrow()
    let n = 1
    for (const _row of rows) n++
    expect(n).toBe(PER_BRAND * 3)
  })
})

describe('sendXlsx streams', () => {
  it('sends the first bytes after a few hundred rows, not after reading them all', async () => {
    const ROWS = 10_000
    let pulled = 0
    function* rows() {
      for (let i = 0; i < ROWS; i++) {
        pulled++
        yield { Codigo: `R-${String(i).padStart(6, '0')}`, Texto: createHash('sha256').update(String(i)).digest('hex').repeat(3) }
      }
    }
    const app = Fastify()
    app.get('/file', (_request, reply) =>
      sendXlsx(reply, { fileName: 'filas.xlsx', sheetName: 'Filas', columns: [{ header: 'Código', value: 'Codigo' }, { header: 'Texto', value: 'Texto' }], rows: rows() }),
    )
    const url = await app.listen({ host: '127.0.0.1', port: 0 })
    try {
      const { pulledAtFirstChunk, bytes, headers } = await new Promise<{ pulledAtFirstChunk: number; bytes: Buffer; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
        http
          .get(`${url}/file`, (res) => {
            const chunks: Buffer[] = []
            let pulledAtFirstChunk = -1
            res.on('data', (chunk: Buffer) => {
              if (pulledAtFirstChunk < 0) pulledAtFirstChunk = pulled
              chunks.push(chunk)
            })
            res.on('end', () => resolve({ pulledAtFirstChunk, bytes: Buffer.concat(chunks), headers: res.headers }))
            res.on('error', reject)
          })
          .on('error', reject)
      })
      expect(headers['transfer-encoding']).toBe('chunked')
      expect(headers['content-length']).toBeUndefined()
      expect(pulledAtFirstChunk).toBeGreaterThan(0)
      expect(pulledAtFirstChunk).toBeLessThan(ROWS / 2)
      expect(pulled).toBe(ROWS)
      const { rows: read } = await readXlsx(bytes)
      expect(read).toHaveLength(ROWS)
      expect(read[ROWS - 1]![0]).toBe(`R-${String(ROWS - 1).padStart(6, '0')}`)
    } finally {
      await app.close()
    }
  })
})
