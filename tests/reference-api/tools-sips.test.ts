import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCups } from '../../server/reference-api/domain/identifiers'
import type { SipsInfo, SipsRaw, SipsReading } from '../../schemas/business/sips'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW } from './business-support'

/** SIPS: the supply point record, its readings, lists and exports (README: Sips). */

const PERIODS = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6'] as const
/** A valid CUPS of a known distributor that is not a seeded supply point. */
const GENERATED = makeCups('0031', '405013365002')
const OTHER = makeCups('0022', '987654321098')
const UNKNOWN_DISTRIBUTOR = makeCups('1234', '000000000001')

let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller

interface SeededPoint {
  cups: string
  codigo_postal: string
  municipio: string
  provincia_id: number
  distribuidora_codigo: string
  tarifa_id: number
  cnae: string
  potencia_p1: number | null
  potencia_p2: number | null
  potencia_p3: number | null
  potencia_p4: number | null
  potencia_p5: number | null
  potencia_p6: number | null
  consumo_anual_kwh: number
}

/** Seeded supply points with their latest contract, `n` of a tariff. */
function seededPoints(tarifaId: number, n: number): SeededPoint[] {
  return api.db
    .prepare(
      `SELECT ps.cups, ps.codigo_postal, ps.municipio, ps.provincia_id, ps.distribuidora_codigo, ps.tarifa_id, ps.cnae,
         c.potencia_p1, c.potencia_p2, c.potencia_p3, c.potencia_p4, c.potencia_p5, c.potencia_p6, c.consumo_anual_kwh
       FROM puntos_suministro ps
       JOIN contratos c ON c.id = (SELECT x.id FROM contratos x WHERE x.punto_suministro_id = ps.id ORDER BY x.fecha_alta DESC, x.id DESC LIMIT 1)
       WHERE ps.tarifa_id = ? ORDER BY ps.id LIMIT ?`,
    )
    .all(tarifaId, n) as SeededPoint[]
}

async function info(cups: string, caller = admin): Promise<SipsInfo> {
  const res = await caller.get<SipsInfo>('/api/sips/info', { cups })
  expect(res.status, res.text).toBe(200)
  return res.body
}

async function lecturas(cups: string): Promise<SipsReading[]> {
  const res = await admin.get<{ Cups: string; Lecturas: SipsReading[] }>('/api/sips/info/consumo', { cups })
  expect(res.status, res.text).toBe(200)
  return res.body.Lecturas
}

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
})
afterAll(async () => {
  await api?.close()
})

describe('the SIPS record', () => {
  it('is deterministic for any valid CUPS: the same record across app restarts, another CUPS differs', async () => {
    const first = await info(GENERATED)
    const firstRaw = (await admin.get('/api/sips/info/raw', { cups: GENERATED })).body
    const firstReadings = await lecturas(GENERATED)
    const again = await startReferenceApi({}, { now: () => NOW })
    try {
      const other = await ApiCaller.signIn(again.url, ADMIN)
      expect((await other.get('/api/sips/info', { cups: GENERATED })).body).toEqual(first)
      expect((await other.get('/api/sips/info/raw', { cups: GENERATED })).body).toEqual(firstRaw)
      expect((await other.get<{ Lecturas: SipsReading[] }>('/api/sips/info/consumo', { cups: GENERATED })).body.Lecturas).toEqual(firstReadings)
    } finally {
      await again.close()
    }
    // Lower case and spaces are the same CUPS; the border-point suffix is the same point.
    expect(await info(GENERATED.toLowerCase().replace(/(.{4})/g, '$1 '))).toEqual(first)
    const withSuffix = await info(`${GENERATED}0F`)
    expect({ ...withSuffix, Cups: GENERATED }).toEqual(first)
    const second = await info(OTHER)
    expect(second.Cups).toBe(OTHER)
    expect(second.Distribuidora.Codigo).toBe('0022')
    expect(second).not.toEqual({ ...first, Cups: OTHER })
    expect(await lecturas(OTHER)).not.toEqual(firstReadings)
  })

  it('a generated record is plausible: the prefix distributor, a province it serves, powers of the tariff', async () => {
    for (const [prefix, provinces] of [
      ['0026', ['33']],
      // Viesgo: Cantabria, and parts of León, Lugo and Palencia.
      ['0027', ['24', '27', '34', '39']],
      ['0021', null],
    ] as const) {
      for (let i = 0; i < 5; i++) {
        const cups = makeCups(prefix, `00000000${i}${i}${i}${i}`)
        const r = await info(cups)
        expect(r.Distribuidora.Codigo).toBe(prefix)
        if (provinces) expect(provinces).toContain(r.ProvinciaCodigo)
        expect(r.CodigoPostal.slice(0, 2)).toBe(r.ProvinciaCodigo)
        expect(['2.0TD', '3.0TD', '6.1TD']).toContain(r.Tarifa.Codigo)
        const n = r.Tarifa.Codigo === '2.0TD' ? 2 : 6
        PERIODS.forEach((p, k) => (k < n ? expect(r.PotenciasContratadasKw[p]).toBeGreaterThan(0) : expect(r.PotenciasContratadasKw[p]).toBeNull()))
        const max = Math.max(...PERIODS.map((p) => r.PotenciasContratadasKw[p] ?? 0))
        expect(r.PotenciaMaximaBieKw).toBeGreaterThanOrEqual(max)
        expect(r.PotenciaMaximaApmKw).toBeGreaterThanOrEqual(max)
        expect(r.ConsumoAnualKwh.Total).toBeGreaterThan(0)
      }
    }
  })

  it('a seeded CUPS agrees with its supply point and its latest contract', async () => {
    for (const point of [...seededPoints(1, 6), ...seededPoints(2, 3), ...seededPoints(3, 2)]) {
      const r = await info(point.cups)
      expect(r.Cups).toBe(point.cups)
      expect(r.Distribuidora.Codigo).toBe(point.distribuidora_codigo)
      expect(r.ProvinciaCodigo).toBe(String(point.provincia_id).padStart(2, '0'))
      expect(r.CodigoPostal).toBe(point.codigo_postal)
      expect(r.Municipio).toBe(point.municipio)
      expect(r.Tarifa.Codigo).toBe({ 1: '2.0TD', 2: '3.0TD', 3: '6.1TD' }[point.tarifa_id])
      expect(r.Tarifa.CodigoAtr).toBe({ 1: '018', 2: '019', 3: '020' }[point.tarifa_id])
      expect(r.Cnae).toBe(point.cnae)
      expect(r.PotenciasContratadasKw).toEqual({ P1: point.potencia_p1, P2: point.potencia_p2, P3: point.potencia_p3, P4: point.potencia_p4, P5: point.potencia_p5, P6: point.potencia_p6 })
      // The last 12 months add up to about the contract's annual consumption.
      expect(Math.abs(r.ConsumoAnualKwh.Total - point.consumo_anual_kwh) / point.consumo_anual_kwh).toBeLessThan(0.06)
      expect(r.Tension).toBe(point.tarifa_id === 3 ? 'MT' : 'BT')
    }
  })

  it('the raw record uses the national field names, in W and Wh', async () => {
    const [point] = seededPoints(2, 1)
    const r = await info(point!.cups)
    const res = await admin.get<SipsRaw>('/api/sips/info/raw', { cups: point!.cups })
    expect(res.status).toBe(200)
    const raw = res.body
    expect(raw.cups).toBe(point!.cups)
    expect(raw.codigoEmpresaDistribuidora).toBe(r.Distribuidora.Codigo)
    expect(raw.codigoProvinciaPS).toBe(r.ProvinciaCodigo)
    expect(raw.codigoTarifaATREnVigor).toBe('019')
    expect(raw.CNAE).toBe(r.Cnae)
    PERIODS.forEach((p) => expect(raw[`potenciasContratadasEnW${p}`]).toBe(Math.round(r.PotenciasContratadasKw[p]! * 1000)))
    expect(raw.potenciaMaximaBIEW).toBe(Math.round(r.PotenciaMaximaBieKw * 1000))
    expect(raw.potenciaMaximaAPMW).toBe(Math.round(r.PotenciaMaximaApmKw * 1000))
    expect(raw.consumoAnualWh).toBe(r.ConsumoAnualKwh.Total * 1000)
    for (const key of ['fechaAltaSuministro', 'fechaUltimoMovimientoContrato', 'fechaUltimoCambioComercializador', 'fechaUltimaLectura', 'valorDerechosAccesoW', 'codigoTelegestion', 'codigoFasesEquipoMedida', 'codigoPropiedadEquipoMedida', 'codigoDisponibilidadICP', 'codigoPerfilConsumo', 'codigoAutoconsumo', 'esViviendaHabitual', 'informacionImpagos', 'importeDepositoGarantiaEuros', 'tipoIdTitular', 'esContratable', 'aplicacionBonoSocial']) {
      expect(raw).toHaveProperty(key)
    }
  })
})

describe('the readings', () => {
  it('are 36 monthly periods, oldest first, ending with the last complete month', async () => {
    const list = await lecturas(GENERATED)
    expect(list).toHaveLength(36)
    // NOW is 21 November 2026: the last complete month is October 2026.
    expect(list[0]!.FechaInicio).toBe('2023-11-01')
    expect(list[35]!.FechaInicio).toBe('2026-10-01')
    expect(list[35]!.FechaFin).toBe('2026-10-31')
    for (let i = 1; i < list.length; i++) {
      const prevEnd = new Date(`${list[i - 1]!.FechaFin}T00:00:00Z`).getTime()
      expect(new Date(`${list[i]!.FechaInicio}T00:00:00Z`).getTime() - prevEnd).toBe(86_400_000)
    }
    expect((await info(GENERATED)).FechaUltimaLectura).toBe('2026-10-31')
    for (const l of list) expect(['real', 'estimada']).toContain(l.TipoLectura)
  })

  it('have nulls for the periods the tariff lacks (2.0TD: energy P4–P6, power P3–P6)', async () => {
    const [point] = seededPoints(1, 1)
    for (const l of await lecturas(point!.cups)) {
      expect(l.Tarifa).toBe('2.0TD')
      for (const p of ['P1', 'P2', 'P3'] as const) {
        expect(l.ActivaKwh[p]).toBeGreaterThan(0)
        expect(l.ReactivaKvarh[p]).toBeGreaterThanOrEqual(0)
      }
      for (const p of ['P4', 'P5', 'P6'] as const) {
        expect(l.ActivaKwh[p]).toBeNull()
        expect(l.ReactivaKvarh[p]).toBeNull()
      }
      expect(l.PotenciaDemandadaKw.P1).toBeGreaterThan(0)
      expect(l.PotenciaDemandadaKw.P2).toBeGreaterThan(0)
      for (const p of ['P3', 'P4', 'P5', 'P6'] as const) expect(l.PotenciaDemandadaKw[p]).toBeNull()
    }
  })

  it('follow the 6-period seasons: January only P1, P2, P6; April only P4, P5, P6 (3.0TD)', async () => {
    const [point] = seededPoints(2, 1)
    const list = await lecturas(point!.cups)
    const january = list.filter((l) => l.FechaInicio.slice(5, 7) === '01')
    const april = list.filter((l) => l.FechaInicio.slice(5, 7) === '04')
    expect(january.length).toBeGreaterThanOrEqual(2)
    for (const l of january) {
      expect(l.ActivaKwh.P1).toBeGreaterThan(0)
      expect(l.ActivaKwh.P2).toBeGreaterThan(0)
      expect([l.ActivaKwh.P3, l.ActivaKwh.P4, l.ActivaKwh.P5]).toEqual([0, 0, 0])
      expect(l.ActivaKwh.P6).toBeGreaterThan(0)
    }
    for (const l of april) {
      expect([l.ActivaKwh.P1, l.ActivaKwh.P2, l.ActivaKwh.P3]).toEqual([0, 0, 0])
      expect(l.ActivaKwh.P4).toBeGreaterThan(0)
      expect(l.ActivaKwh.P5).toBeGreaterThan(0)
    }
    // Nights, weekends and holidays are P6: a large share even for a business.
    const total = (l: SipsReading) => PERIODS.reduce((s, p) => s + (l.ActivaKwh[p] ?? 0), 0)
    for (const l of list) expect(l.ActivaKwh.P6! / total(l)).toBeGreaterThan(0.2)
  })

  it('have seasons: household winter and summer months above spring and autumn', async () => {
    const households = api.db.prepare("SELECT cups FROM puntos_suministro WHERE cnae = '9820' AND tarifa_id = 1 ORDER BY id LIMIT 5").all() as { cups: string }[]
    for (const { cups } of households) {
      const list = await lecturas(cups)
      const byMonth = (months: string[]) => {
        const rows = list.filter((l) => months.includes(l.FechaInicio.slice(5, 7)))
        return rows.reduce((s, l) => s + PERIODS.reduce((t, p) => t + (l.ActivaKwh[p] ?? 0), 0), 0) / rows.length
      }
      const winter = byMonth(['12', '01'])
      const summer = byMonth(['07', '08'])
      const mild = byMonth(['04', '05', '10'])
      expect(winter).toBeGreaterThan(mild * 1.25)
      expect(summer).toBeGreaterThan(mild * 1.15)
    }
  })

  it('the annual consumption per period is the sum of the last 12 months', async () => {
    for (const cups of [GENERATED, OTHER, seededPoints(2, 1)[0]!.cups]) {
      const r = await info(cups)
      const last12 = (await lecturas(cups)).slice(-12)
      let total = 0
      for (const p of PERIODS) {
        const sum = last12.every((l) => l.ActivaKwh[p] === null) ? null : last12.reduce((s, l) => s + (l.ActivaKwh[p] ?? 0), 0)
        expect(r.ConsumoAnualKwh[p]).toBe(sum)
        total += sum ?? 0
      }
      expect(r.ConsumoAnualKwh.Total).toBe(total)
    }
  })
})

describe('errors', () => {
  it('an invalid CUPS is a 400 with the reason, an unknown distributor a 404, a missing parameter a 400', async () => {
    const bad = await admin.get('/api/sips/info', { cups: 'ES0021000000000001RC' })
    expect(bad.status).toBe(400)
    expect(bad.text).toBe('El CUPS ES0021000000000001RC no es válido: Las letras de control del CUPS no son correctas (deberían ser RK).')
    for (const path of ['/api/sips/info', '/api/sips/info/raw', '/api/sips/info/consumo', '/api/sips/export']) {
      const unknown = await admin.get(path, { cups: UNKNOWN_DISTRIBUTOR })
      expect(unknown.status).toBe(404)
      expect(unknown.text).toContain('No hay datos del SIPS')
      expect((await admin.get(path)).status).toBe(400)
      expect((await admin.get(path, { cups: 'ES12' })).status).toBe(400)
    }
  })

  it('any signed-in user may look up SIPS; no token is a 401', async () => {
    expect((await agente.get('/api/sips/info', { cups: GENERATED })).status).toBe(200)
    expect((await new ApiCaller(api.url, null).get('/api/sips/info', { cups: GENERATED })).status).toBe(401)
  })
})

describe('lists', () => {
  it('answers every CUPS in input order with its status, duplicates collapsed after normalising', async () => {
    const res = await admin.post<{ Cups: string; Normalizado: string; Estado: string; Motivo: string | null; Info: SipsInfo | null }[]>('/api/sips/info/list', {
      Cups: [GENERATED, 'ES0021000000000001RC', UNKNOWN_DISTRIBUTOR, GENERATED.toLowerCase(), OTHER, ' ', 42],
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body.map((r) => [r.Cups, r.Estado])).toEqual([
      [GENERATED, 'ok'],
      ['ES0021000000000001RC', 'invalido'],
      [UNKNOWN_DISTRIBUTOR, 'sin_datos'],
      [OTHER, 'ok'],
      [' ', 'invalido'],
      ['42', 'invalido'],
    ])
    expect(res.body[0]!.Info).toEqual(await info(GENERATED))
    expect(res.body[0]!.Motivo).toBeNull()
    expect(res.body[1]!.Motivo).toBe('Las letras de control del CUPS no son correctas (deberían ser RK).')
    expect(res.body[1]!.Info).toBeNull()
    expect(res.body[2]!.Motivo).toContain('1234')
    expect(res.body[2]!.Info).toBeNull()
  })

  it('refuses an empty list, more than 200 items and a body without a list', async () => {
    expect((await admin.post('/api/sips/info/list', { Cups: [] })).status).toBe(400)
    expect((await admin.post('/api/sips/info/list', { Cups: Array.from({ length: 201 }, () => GENERATED) })).status).toBe(400)
    expect((await admin.post('/api/sips/info/list', { Cups: Array.from({ length: 200 }, () => GENERATED) })).status).toBe(200)
    expect((await admin.post('/api/sips/info/list', { cups: 'ES0021000000000001RK' })).status).toBe(400)
    expect((await admin.post('/api/sips/export/list', {})).status).toBe(400)
  })
})

describe('exports', () => {
  async function workbook(bytes: Buffer) {
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(bytes as unknown as ArrayBuffer)
    return wb
  }

  it('GET /api/sips/export: a real XLSX with the supply point and its readings', async () => {
    const [point] = seededPoints(1, 1)
    const res = await admin.get('/api/sips/export', { cups: point!.cups })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('spreadsheetml')
    expect(res.headers.get('content-disposition')).toContain(`sips-${point!.cups}.xlsx`)
    const wb = await workbook(res.bytes)
    expect(wb.worksheets.map((s) => s.name)).toEqual(['Punto de suministro', 'Consumos'])
    const fields = wb.getWorksheet('Punto de suministro')!
    const values = new Map<string, unknown>()
    fields.eachRow((row, n) => {
      if (n > 1) values.set(String(row.getCell(1).value), row.getCell(2).value)
    })
    expect(values.get('CUPS')).toBe(point!.cups)
    expect(values.get('CNAE')).toBe(point!.cnae)
    const readings = wb.getWorksheet('Consumos')!
    expect(readings.rowCount).toBe(37)
    expect(readings.getRow(1).getCell(1).value).toBe('Fecha inicio')
    const first = readings.getRow(2).getCell(1).value
    expect(first instanceof Date ? first.toISOString().slice(0, 10) : first).toBe('2023-11-01')
    const consumo = await lecturas(point!.cups)
    expect(readings.getRow(37).getCell(4).value).toBe(consumo[35]!.ActivaKwh.P1)
  })

  it('POST /api/sips/export/list: one row per CUPS with its status', async () => {
    const res = await admin.post('/api/sips/export/list', { Cups: [GENERATED, 'ES0021000000000001RC', UNKNOWN_DISTRIBUTOR, GENERATED] })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('sips-lista-2026-11-21.xlsx')
    const sheet = (await workbook(res.bytes)).worksheets[0]!
    expect(sheet.rowCount).toBe(4)
    expect(sheet.getRow(2).getCell(1).value).toBe(GENERATED)
    expect(sheet.getRow(2).getCell(3).value).toBe('Correcto')
    expect(sheet.getRow(3).getCell(3).value).toBe('No válido')
    expect(sheet.getRow(4).getCell(3).value).toBe('Sin datos')
  })
})
