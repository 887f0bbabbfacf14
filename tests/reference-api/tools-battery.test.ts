import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Battery, CalculationAnswer, SavingsPeriod } from '../../schemas/business/battery'
import { modeloBateria, rankBaterias, resultadoBateria, type EntradaModelo } from '../../server/reference-api/domain/battery'
import { FACTOR_IMPUESTOS } from '../../server/reference-api/domain/energy-prices'
import { ApiCaller } from '../helpers/api-caller'
import { pdfText } from '../helpers/pdf-text'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW } from './business-support'

/** Batteries: the savings model of the domain notes and the calls (README: Baterías). */

const EXAMPLE: EntradaModelo = { consumoKwh: 4000, produccionKwh: 5000, autoconsumoKwh: 1600, precioImportacionKwh: 0.16, precioExcedenteKwh: 0.06, preciosConImpuestos: true }
const EXAMPLE_BATTERY = { capacidadKwh: 5, eficiencia: 0.9, llenadoMedio: 0.75, precioEur: 4000 }
const CALCULO = { ConsumoAnualKwh: 4000, ProduccionFvAnualKwh: 5000, AutoconsumoDirectoKwh: 1600, PrecioImportacionKwh: 0.16, PrecioExcedenteKwh: 0.06, PreciosConImpuestos: true }

describe('the savings model (domain/battery.ts): the worked example of the domain notes', () => {
  it('C 4000, G 5000, S0 1600, B 5, η 0.9, f 0.75 at 0.16 / 0.06 €/kWh', () => {
    const m = modeloBateria(EXAMPLE, EXAMPLE_BATTERY)
    expect(m.excedenteAntes).toBe(3400)
    expect(m.importacionAntes).toBe(2400)
    // charge = min(3400, 5 × 0.75 × 365 = 1368.75, 2400 / 0.9 = 2666.7)
    expect(m.carga).toBeCloseTo(1368.75, 9)
    expect(Math.round(m.carga)).toBe(1369)
    expect(m.entregada).toBeCloseTo(1231.875, 9)
    expect(Math.round(m.entregada)).toBe(1232)
    expect(m.autoconsumoDespues).toBeCloseTo(2831.875, 9)
    expect(m.excedenteDespues).toBeCloseTo(2031.25, 9)
    expect(m.importacionDespues).toBeCloseTo(1168.125, 9)
    expect(Math.round(m.autoconsumoAntesRatio * 100)).toBe(32)
    expect(Math.round(m.autoconsumoDespuesRatio * 100)).toBe(57)
    expect(Math.round(m.autarquiaAntesRatio * 100)).toBe(40)
    expect(Math.round(m.autarquiaDespuesRatio * 100)).toBe(71)
    // saving = 1231.875 × 0.16 − 1368.75 × 0.06 = 114.975
    expect(m.ahorroAnual).toBeCloseTo(114.975, 9)
    expect(Math.round(m.ahorroAnual)).toBe(115)
    expect(m.retornoAnios!).toBeCloseTo(4000 / 114.975, 9)
    expect(Math.round(m.retornoAnios!)).toBe(35)
    expect(m.ahorroNeto10Anios).toBeCloseTo(1149.75 - 4000, 9)
  })

  it('with p_exc 0 (surplus credit already capped): 197 €/year, about 20 years', () => {
    const m = modeloBateria({ ...EXAMPLE, precioExcedenteKwh: 0 }, EXAMPLE_BATTERY)
    expect(m.ahorroAnual).toBeCloseTo(197.1, 9)
    expect(Math.round(m.ahorroAnual)).toBe(197)
    expect(Math.round(m.retornoAnios!)).toBe(20)
  })

  it('prices without taxes: the saving adds the electricity tax and VAT', () => {
    const m = modeloBateria({ ...EXAMPLE, preciosConImpuestos: false }, EXAMPLE_BATTERY)
    expect(m.ahorroAnual).toBeCloseTo(114.975 * 1.0511269632 * 1.21, 9)
    expect(FACTOR_IMPUESTOS).toBeCloseTo(1.27186362547, 10)
  })

  it('the other limits: imports (I0/η) and surplus (E0) bound the charge; no saving, no payback', () => {
    // Little import left: charge = I0 / η = 900 / 0.9 = 1000; all imports covered.
    const imports = modeloBateria({ ...EXAMPLE, consumoKwh: 2500 }, EXAMPLE_BATTERY)
    expect(imports.carga).toBeCloseTo(1000, 9)
    expect(imports.importacionDespues).toBeCloseTo(0, 9)
    expect(imports.autarquiaDespuesRatio).toBeCloseTo(1, 9)
    // Little surplus: charge = E0 = 200.
    const surplus = modeloBateria({ ...EXAMPLE, produccionKwh: 1800 }, EXAMPLE_BATTERY)
    expect(surplus.carga).toBeCloseTo(200, 9)
    expect(surplus.excedenteDespues).toBeCloseTo(0, 9)
    // Surplus worth more than imports: a loss, no payback.
    const loss = modeloBateria({ ...EXAMPLE, precioImportacionKwh: 0.05, precioExcedenteKwh: 0.06 }, EXAMPLE_BATTERY)
    expect(loss.ahorroAnual).toBeLessThan(0)
    expect(loss.retornoAnios).toBeNull()
  })

  it('rounded results: kWh whole, percentages 1 decimal, euros 2 decimals, payback 1 decimal', () => {
    const b: Battery = { Id: 1, Modelo: 'X', Fabricante: 'Y', CapacidadUtilKwh: 5, Eficiencia: 0.9, LlenadoMedio: 0.75, PrecioEur: 4000, GarantiaAnios: 10 }
    expect(resultadoBateria(EXAMPLE, b)).toEqual({
      Bateria: b,
      CargaKwh: 1369,
      EntregadaKwh: 1232,
      ExcedenteDespuesKwh: 2031,
      ImportacionDespuesKwh: 1168,
      AutoconsumoAntesPct: 32,
      AutoconsumoDespuesPct: 56.6,
      AutarquiaAntesPct: 40,
      AutarquiaDespuesPct: 70.8,
      AhorroAnualEur: 114.98,
      RetornoAnios: 34.8,
      AhorroNeto10AniosEur: -2850.25,
    })
  })

  it('best = highest 10-year net saving; ties by the shorter payback', () => {
    const entrada: EntradaModelo = { consumoKwh: 100_000, produccionKwh: 100_000, autoconsumoKwh: 0, precioImportacionKwh: 1, precioExcedenteKwh: 0, preciosConImpuestos: true }
    // Saving = capacity × 365 (η 1, f 1, 1 €/kWh): A saves 200 €/year for 1000 € (net 1000, payback 5),
    // B 300 €/year for 2000 € (net 1000, payback 6.7), C 400 €/year for 4500 € (net −500).
    const battery = (Id: number, saving: number, PrecioEur: number): Battery => ({ Id, Modelo: `M${Id}`, Fabricante: 'F', CapacidadUtilKwh: saving / 365, Eficiencia: 1, LlenadoMedio: 1, PrecioEur, GarantiaAnios: 10 })
    const ranked = rankBaterias(entrada, [battery(3, 400, 4500), battery(2, 300, 2000), battery(1, 200, 1000)])
    expect(ranked.map((r) => [r.Bateria.Id, r.AhorroNeto10AniosEur])).toEqual([
      [1, 1000],
      [2, 1000],
      [3, -500],
    ])
    expect(rankBaterias(entrada, [battery(9, 100, 100), battery(8, 100, 100)]).map((r) => r.Bateria.Id)).toEqual([8, 9])
  })
})

describe('the battery calls', () => {
  let api: RunningReferenceApi
  let admin: ApiCaller
  let agente: ApiCaller

  beforeAll(async () => {
    api = await startReferenceApi({}, { now: () => NOW })
    admin = await ApiCaller.signIn(api.url, ADMIN)
    agente = await ApiCaller.signIn(api.url, AGENTE)
  })
  afterAll(async () => {
    await api?.close()
  })

  it('403 without MENUPRODUCTOSBATERIAS, before the body is read', async () => {
    const forbidden = [
      await agente.get('/api/bateria/FechasAhorro'),
      await agente.post('/api/bateria/calculadora', CALCULO),
      await agente.post('/api/bateria/calculadora', { nada: true }),
      await agente.post('/api/bateria/oferta', { Calculo: CALCULO, BateriaId: 1, Cliente: { Nombre: 'A' } }),
      await agente.post('/api/bateria/contrato', { Calculo: CALCULO, BateriaId: 1, Cliente: { Nombre: 'A' } }),
      await agente.post('/api/bateria/savedata', { Nombre: 'x', Calculo: CALCULO }),
    ]
    for (const res of forbidden) {
      expect(res.status).toBe(403)
      expect(res.text).toBe('No tienes permiso para esta operación (requiere MENUPRODUCTOSBATERIAS).')
    }
  })

  it('the catalogue: 5–6 batteries of 5–15 kWh, efficiency 0.88–0.95, 3 500–9 500 €', async () => {
    const res = await admin.post<CalculationAnswer>('/api/bateria/calculadora', CALCULO)
    expect(res.status, res.text).toBe(200)
    const all = [res.body.Mejor, ...res.body.Alternativas].map((r) => r.Bateria)
    expect(all.length).toBeGreaterThanOrEqual(5)
    expect(all.length).toBeLessThanOrEqual(6)
    for (const b of all) {
      expect(b.CapacidadUtilKwh).toBeGreaterThanOrEqual(5)
      expect(b.CapacidadUtilKwh).toBeLessThanOrEqual(15)
      expect(b.Eficiencia).toBeGreaterThanOrEqual(0.88)
      expect(b.Eficiencia).toBeLessThanOrEqual(0.95)
      expect(b.PrecioEur).toBeGreaterThanOrEqual(3500)
      expect(b.PrecioEur).toBeLessThanOrEqual(9500)
      expect(b.GarantiaAnios).toBeGreaterThan(0)
    }
  })

  it('calculadora: the worked example, the best by 10-year net saving, the rest as alternatives', async () => {
    const res = await admin.post<CalculationAnswer>('/api/bateria/calculadora', CALCULO)
    const { Mejor, Alternativas, Entrada } = res.body
    expect(Entrada).toMatchObject({ ConsumoAnualKwh: 4000, ProduccionFvAnualKwh: 5000, AutoconsumoDirectoKwh: 1600, PrecioImportacionKwh: 0.16, PrecioExcedenteKwh: 0.06, PreciosConImpuestos: true, ExcedenteAntesKwh: 3400, ImportacionAntesKwh: 2400 })
    const ranked = [Mejor, ...Alternativas]
    for (let i = 1; i < ranked.length; i++) {
      const a = ranked[i - 1]!
      const b = ranked[i]!
      expect(a.AhorroNeto10AniosEur > b.AhorroNeto10AniosEur || (a.AhorroNeto10AniosEur === b.AhorroNeto10AniosEur && (a.RetornoAnios ?? Infinity) <= (b.RetornoAnios ?? Infinity))).toBe(true)
    }
    // The catalogue's 5 kWh battery is the worked example's (η 0.9, f 0.75, 4 000 €).
    const example = ranked.find((r) => r.Bateria.CapacidadUtilKwh === 5)!
    expect(example).toMatchObject({ CargaKwh: 1369, EntregadaKwh: 1232, AutoconsumoAntesPct: 32, AutarquiaAntesPct: 40, AhorroAnualEur: 114.98, RetornoAnios: 34.8 })
    expect(Math.round(example.AutoconsumoDespuesPct)).toBe(57)
    expect(Math.round(example.AutarquiaDespuesPct)).toBe(71)
    const zero = await admin.post<CalculationAnswer>('/api/bateria/calculadora', { ...CALCULO, PrecioExcedenteKwh: 0, BateriaIds: [example.Bateria.Id] })
    expect(zero.body.Mejor.Bateria.Id).toBe(example.Bateria.Id)
    expect(zero.body.Alternativas).toEqual([])
    expect(Math.round(zero.body.Mejor.AhorroAnualEur)).toBe(197)
    expect(Math.round(zero.body.Mejor.RetornoAnios!)).toBe(20)
  })

  it('BateriaIds limits the comparison; the best among them wins', async () => {
    const all = (await admin.post<CalculationAnswer>('/api/bateria/calculadora', { ...CALCULO, ConsumoAnualKwh: 9000, ProduccionFvAnualKwh: 9000, AutoconsumoDirectoKwh: 2500, PrecioExcedenteKwh: 0 })).body
    const ranked = [all.Mejor, ...all.Alternativas]
    const pick = [ranked[3]!.Bateria.Id, ranked[1]!.Bateria.Id]
    const res = await admin.post<CalculationAnswer>('/api/bateria/calculadora', { ...CALCULO, ConsumoAnualKwh: 9000, ProduccionFvAnualKwh: 9000, AutoconsumoDirectoKwh: 2500, PrecioExcedenteKwh: 0, BateriaIds: pick })
    expect(res.body.Mejor.Bateria.Id).toBe(ranked[1]!.Bateria.Id)
    expect(res.body.Alternativas.map((r) => r.Bateria.Id)).toEqual([ranked[3]!.Bateria.Id])
  })

  it('prices without taxes: the saving is multiplied by the tax factor', async () => {
    const con = (await admin.post<CalculationAnswer>('/api/bateria/calculadora', { ...CALCULO, BateriaIds: [1] })).body.Mejor
    const sin = (await admin.post<CalculationAnswer>('/api/bateria/calculadora', { ...CALCULO, PreciosConImpuestos: false, BateriaIds: [1] })).body
    expect(sin.Entrada.FactorImpuestos).toBeCloseTo(FACTOR_IMPUESTOS, 8)
    expect(sin.Mejor.AhorroAnualEur).toBeCloseTo(114.975 * FACTOR_IMPUESTOS, 2)
    expect(sin.Mejor.CargaKwh).toBe(con.CargaKwh)
  })

  it('FechasAhorro: the last 12 months and the complete years, prices from the OMIE series; omitted prices come from the period', async () => {
    const res = await admin.get<SavingsPeriod[]>('/api/bateria/FechasAhorro')
    expect(res.status).toBe(200)
    expect(res.body.map((p) => [p.Id, p.Desde, p.Hasta])).toEqual([
      [1, '2025-11-22', '2026-11-21'],
      [2025, '2025-01-01', '2025-12-31'],
      [2024, '2024-01-01', '2024-12-31'],
      [2023, '2023-01-01', '2023-12-31'],
    ])
    for (const p of res.body) {
      expect(p.PrecioImportacionMedioKwh).toBeGreaterThan(0.08)
      expect(p.PrecioImportacionMedioKwh).toBeLessThan(0.2)
      expect(p.PrecioExcedenteMedioKwh).toBeGreaterThan(0.02)
      expect(p.PrecioExcedenteMedioKwh).toBeLessThan(p.PrecioImportacionMedioKwh)
    }
    const y2024 = res.body.find((p) => p.Id === 2024)!
    // 2023 was dearer than 2024 (87 vs 63 €/MWh).
    expect(res.body.find((p) => p.Id === 2023)!.PrecioImportacionMedioKwh).toBeGreaterThan(y2024.PrecioImportacionMedioKwh)

    const { PrecioImportacionKwh: _i, PrecioExcedenteKwh: _e, ...sinPrecios } = CALCULO
    const filled = await admin.post<CalculationAnswer>('/api/bateria/calculadora', { ...sinPrecios, PreciosConImpuestos: false, FechasAhorroId: 2024 })
    expect(filled.status, filled.text).toBe(200)
    expect(filled.body.Entrada).toMatchObject({ PrecioImportacionKwh: y2024.PrecioImportacionMedioKwh, PrecioExcedenteKwh: y2024.PrecioExcedenteMedioKwh, FechasAhorroId: 2024, PreciosDelPeriodo: ['PrecioImportacionKwh', 'PrecioExcedenteKwh'] })
    // With taxes: the period's prices (without taxes) are converted.
    const withTaxes = await admin.post<CalculationAnswer>('/api/bateria/calculadora', { ...sinPrecios, PrecioExcedenteKwh: 0.05, PreciosConImpuestos: true, FechasAhorroId: 2024 })
    expect(withTaxes.body.Entrada.PrecioImportacionKwh).toBeCloseTo(y2024.PrecioImportacionMedioKwh * FACTOR_IMPUESTOS, 6)
    expect(withTaxes.body.Entrada.PrecioExcedenteKwh).toBe(0.05)
    expect(withTaxes.body.Entrada.PreciosDelPeriodo).toEqual(['PrecioImportacionKwh'])
  })

  it('400 naming the field: negatives, S0 above production or consumption, missing prices, unknown ids', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...CALCULO, ConsumoAnualKwh: -1 }, 'ConsumoAnualKwh:'],
      [{ ...CALCULO, ConsumoAnualKwh: 0 }, 'ConsumoAnualKwh:'],
      [{ ...CALCULO, ProduccionFvAnualKwh: -5 }, 'ProduccionFvAnualKwh:'],
      [{ ...CALCULO, AutoconsumoDirectoKwh: -5 }, 'AutoconsumoDirectoKwh:'],
      [{ ...CALCULO, AutoconsumoDirectoKwh: 5001 }, 'AutoconsumoDirectoKwh: el autoconsumo directo (5.001 kWh) no puede superar la producción'],
      [{ ...CALCULO, ConsumoAnualKwh: 1500 }, 'AutoconsumoDirectoKwh: el autoconsumo directo (1.600 kWh) no puede superar el consumo anual'],
      [{ ...CALCULO, PrecioImportacionKwh: -0.1 }, 'PrecioImportacionKwh:'],
      [{ ...CALCULO, PrecioExcedenteKwh: 'mucho' }, 'PrecioExcedenteKwh:'],
      [{ ...CALCULO, PrecioExcedenteKwh: undefined }, 'PrecioExcedenteKwh: es obligatorio.'],
      [{ ...CALCULO, PreciosConImpuestos: 'quizá' }, 'PreciosConImpuestos:'],
      [{ ...CALCULO, PreciosConImpuestos: undefined }, 'PreciosConImpuestos:'],
      [{ ...CALCULO, FechasAhorroId: 7 }, 'FechasAhorroId: el periodo 7 no existe'],
      [{ ...CALCULO, BateriaIds: [1, 99] }, 'BateriaIds: la batería 99 no existe.'],
      [{ ...CALCULO, BateriaIds: [] }, 'BateriaIds:'],
      [{ ...CALCULO, BateriaIds: 'todas' }, 'BateriaIds:'],
    ]
    for (const [body, message] of cases) {
      const res = await admin.post('/api/bateria/calculadora', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.text.startsWith(message), res.text).toBe(true)
    }
    expect((await admin.post('/api/bateria/calculadora', [1, 2])).status).toBe(400)
  })

  const CLIENTE = { Nombre: 'Lucía Fernández Ruiz', Nif: '12345678z', Email: 'Lucia@Example.es', Direccion: 'Calle Mayor 1, 28013 Madrid' }

  it('oferta: a brand PDF with the battery model, the inputs and the 10-year table', async () => {
    const res = await admin.post('/api/bateria/oferta', { Calculo: CALCULO, BateriaId: 1, Cliente: CLIENTE })
    expect(res.status, res.text).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toContain('oferta-bateria-2026-11-21.pdf')
    expect(res.bytes.subarray(0, 4).toString('latin1')).toBe('%PDF')
    const text = pdfText(res.bytes)
    expect(text).toContain('Oferta de batería')
    expect(text).toContain('LUNA2000-5-S0')
    expect(text).toContain('Huawei')
    expect(text).toContain('Lucía Fernández Ruiz')
    expect(text).toContain('12345678Z')
    expect(text).toContain('1.369 kWh')
    expect(text).toContain('114,98 €')
    expect(text).toContain('Proyección a 10 años')
    expect(text).toContain('Energía Verde')
  })

  it('contrato: a brand PDF with the parties, the battery, the price, the warranty and the 14-day withdrawal', async () => {
    const res = await admin.forBrand('grupoenergia.es').post('/api/bateria/contrato', { Calculo: CALCULO, BateriaId: 2, Cliente: CLIENTE })
    expect(res.status, res.text).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('contrato-bateria-2026-11-21.pdf')
    expect(res.bytes.subarray(0, 4).toString('latin1')).toBe('%PDF')
    // Paragraphs wrap: compare with the line breaks as spaces.
    const text = pdfText(res.bytes).replace(/\s+/g, ' ')
    expect(text).toContain('Contrato de suministro e instalación de batería')
    expect(text).toContain('Battery-Box Premium HVS 7.7')
    expect(text).toContain('Grupo Energía')
    expect(text).toContain('14 días naturales')
    expect(text).toContain('5.300,00 €')
    expect(text).toContain('Garantía')
  })

  it('oferta and contrato: 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ Calculo: CALCULO, BateriaId: 99, Cliente: CLIENTE }, 'BateriaId: la batería 99 no existe.'],
      [{ Calculo: CALCULO, Cliente: CLIENTE }, 'BateriaId: es obligatorio.'],
      [{ Calculo: { ...CALCULO, ConsumoAnualKwh: -1 }, BateriaId: 1, Cliente: CLIENTE }, 'Calculo.ConsumoAnualKwh:'],
      [{ BateriaId: 1, Cliente: CLIENTE }, 'Calculo: es obligatorio.'],
      [{ Calculo: CALCULO, BateriaId: 1 }, 'Cliente: es obligatorio.'],
      [{ Calculo: CALCULO, BateriaId: 1, Cliente: { ...CLIENTE, Nombre: ' ' } }, 'Cliente.Nombre: es obligatorio.'],
      [{ Calculo: CALCULO, BateriaId: 1, Cliente: { ...CLIENTE, Nif: '12345678A' } }, 'Cliente.Nif: La letra del DNI no es correcta (debería ser Z).'],
      [{ Calculo: CALCULO, BateriaId: 1, Cliente: { ...CLIENTE, Email: 'no-es-correo' } }, 'Cliente.Email:'],
    ]
    for (const path of ['/api/bateria/oferta', '/api/bateria/contrato']) {
      for (const [body, message] of cases) {
        const res = await admin.post(path, body)
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400)
        expect(res.text.startsWith(message), res.text).toBe(true)
      }
    }
  })

  it('savedata: 201 { Id, Nombre, Fecha }, stored for the user and brand', async () => {
    const res = await admin.post<{ Id: number; Nombre: string; Fecha: string }>('/api/bateria/savedata', { Nombre: 'Casa de Lucía', Calculo: CALCULO, Resultado: { Mejor: 1 } })
    expect(res.status, res.text).toBe(201)
    expect(res.body).toEqual({ Id: expect.any(Number), Nombre: 'Casa de Lucía', Fecha: '2026-11-21T10:00:00Z' })
    const row = api.db.prepare('SELECT b.*, m.dominio, u.email FROM bateria_calculos b JOIN marcas m ON m.id = b.marca_id JOIN usuarios u ON u.id = b.usuario_id WHERE b.id = ?').get(res.body.Id) as Record<string, string>
    expect(row.dominio).toBe('energiaverde.es')
    expect(row.email).toBe('admin@portal.test')
    expect(JSON.parse(row.calculo!)).toMatchObject(CALCULO)
    expect(JSON.parse(row.resultado!)).toEqual({ Mejor: 1 })
    expect((await admin.post('/api/bateria/savedata', { Calculo: CALCULO })).text).toBe('Nombre: es obligatorio.')
    expect((await admin.post('/api/bateria/savedata', { Nombre: 'x', Calculo: { ...CALCULO, AutoconsumoDirectoKwh: 9000 } })).text.startsWith('Calculo.AutoconsumoDirectoKwh:')).toBe(true)
    expect((await admin.post('/api/bateria/savedata', { Nombre: 'x', Calculo: CALCULO, Resultado: 'texto' })).status).toBe(400)
  })
})
