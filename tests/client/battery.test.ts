import { describe, expect, it } from 'vitest'
import {
  allResults,
  buildCalculationBody,
  EMPTY_INPUTS,
  formatBeforeAfter,
  formatEurRounded,
  formatKwh,
  formatPayback,
  formatPct,
  inputsChanged,
  periodPrices,
  simulate,
  TAX_FACTOR,
  tenYearRows,
  validateInputs,
  type BatteryInputs,
} from '../../client/widgets/battery/model'
import type { BatteryResult } from '../../schemas/business/battery'

const example: BatteryInputs = {
  ConsumoAnualKwh: 4000,
  ProduccionFvAnualKwh: 5000,
  AutoconsumoDirectoKwh: 1600,
  PrecioImportacionKwh: 0.16,
  PrecioExcedenteKwh: 0.06,
  PreciosConImpuestos: true,
  FechasAhorroId: null,
}

describe('battery input validation', () => {
  it('accepts the worked example of domain.md', () => {
    expect(validateInputs(example)).toEqual({})
  })

  it('asks for every figure when nothing is typed', () => {
    const e = validateInputs(EMPTY_INPUTS)
    expect(e.ConsumoAnualKwh).toBe('Indica el consumo anual en kWh.')
    expect(e.ProduccionFvAnualKwh).toBe('Indica la producción fotovoltaica anual en kWh.')
    expect(e.AutoconsumoDirectoKwh).toMatch(/autoconsumo directo/)
    expect(e.PrecioImportacionKwh).toMatch(/o elige un periodo de ahorro/)
    expect(e.PrecioExcedenteKwh).toMatch(/o elige un periodo de ahorro/)
  })

  it('refuses negative figures and prices', () => {
    const e = validateInputs({ ...example, ConsumoAnualKwh: -1, ProduccionFvAnualKwh: -5, AutoconsumoDirectoKwh: -2, PrecioImportacionKwh: -0.1, PrecioExcedenteKwh: -0.01 })
    expect(e.ConsumoAnualKwh).toBe('El consumo anual no puede ser negativo.')
    expect(e.ProduccionFvAnualKwh).toBe('La producción fotovoltaica no puede ser negativa.')
    expect(e.AutoconsumoDirectoKwh).toBe('El autoconsumo directo no puede ser negativo.')
    expect(e.PrecioImportacionKwh).toBe('El precio de la energía comprada no puede ser negativo.')
    expect(e.PrecioExcedenteKwh).toBe('El precio del excedente no puede ser negativo.')
  })

  it('keeps direct self-consumption within production and consumption', () => {
    expect(validateInputs({ ...example, AutoconsumoDirectoKwh: 5200 }).AutoconsumoDirectoKwh).toBe('El autoconsumo directo no puede superar la producción fotovoltaica.')
    expect(validateInputs({ ...example, ProduccionFvAnualKwh: 9000, AutoconsumoDirectoKwh: 4500 }).AutoconsumoDirectoKwh).toBe('El autoconsumo directo no puede superar el consumo anual.')
    expect(validateInputs({ ...example, AutoconsumoDirectoKwh: 4000, ProduccionFvAnualKwh: 4000 })).toEqual({})
    expect(validateInputs({ ...example, AutoconsumoDirectoKwh: 0 })).toEqual({})
  })

  it('needs a consumption above zero', () => {
    expect(validateInputs({ ...example, ConsumoAnualKwh: 0, AutoconsumoDirectoKwh: 0 }).ConsumoAnualKwh).toBe('El consumo anual debe ser mayor que cero.')
  })

  it('lets a savings period stand in for the prices, and catches prices not in €/kWh', () => {
    expect(validateInputs({ ...example, PrecioImportacionKwh: null, PrecioExcedenteKwh: null, FechasAhorroId: 2 })).toEqual({})
    expect(validateInputs({ ...example, PrecioImportacionKwh: 160 }).PrecioImportacionKwh).toMatch(/se indica en €\/kWh/)
  })
})

describe('the calculation request', () => {
  it('carries the inputs under the contract names', () => {
    expect(buildCalculationBody(example)).toEqual({
      ConsumoAnualKwh: 4000,
      ProduccionFvAnualKwh: 5000,
      AutoconsumoDirectoKwh: 1600,
      PrecioImportacionKwh: 0.16,
      PrecioExcedenteKwh: 0.06,
      PreciosConImpuestos: true,
    })
  })

  it('leaves an empty price out when a period is chosen, so the API uses its average', () => {
    const body = buildCalculationBody({ ...example, PrecioExcedenteKwh: null, FechasAhorroId: 3 }, [1, 2])
    expect(body).toEqual({ ConsumoAnualKwh: 4000, ProduccionFvAnualKwh: 5000, AutoconsumoDirectoKwh: 1600, PrecioImportacionKwh: 0.16, PreciosConImpuestos: true, FechasAhorroId: 3, BateriaIds: [1, 2] })
    expect('PrecioExcedenteKwh' in body).toBe(false)
  })

  it('knows when the form no longer matches the results', () => {
    const body = buildCalculationBody(example)
    expect(inputsChanged(example, body)).toBe(false)
    expect(inputsChanged({ ...example, ConsumoAnualKwh: 4100 }, body)).toBe(true)
    expect(inputsChanged(example, null)).toBe(false)
  })
})

describe('the battery model of domain.md', () => {
  const base = { C: 4000, G: 5000, S0: 1600, B: 5, eta: 0.9, f: 0.75 }
  it('reproduces the worked example', () => {
    const r = simulate({ ...base, pImp: 0.16, pExc: 0.06, capex: 4000 })
    expect(Math.round(r.charge)).toBe(1369)
    expect(Math.round(r.delivered)).toBe(1232)
    expect(formatBeforeAfter(r.selfConsumptionBefore * 100, r.selfConsumptionAfter * 100)).toBe('32 % → 57 %')
    expect(formatBeforeAfter(r.autarkyBefore * 100, r.autarkyAfter * 100)).toBe('40 % → 71 %')
    expect(Math.round(r.saving)).toBe(115)
    expect(Math.round(r.payback!)).toBe(35)
    expect(Math.round(simulate({ ...base, pImp: 0.16, pExc: 0 }).saving)).toBe(197)
  })

  it('adds electricity tax and VAT when the prices exclude them', () => {
    const r = simulate({ ...base, pImp: 0.16, pExc: 0.06, pricesIncludeTaxes: false })
    expect(r.saving).toBeCloseTo(115.1 * 1.0511269632 * 1.21, 0)
  })
})

describe('result formats', () => {
  it('shows percentages of the API (0–100) without decimals', () => {
    expect(formatPct(32.4)).toBe('32 %')
    expect(formatPct(57.5)).toBe('58 %')
    expect(formatPct(null)).toBe('—')
    expect(formatBeforeAfter(40, 70.8)).toBe('40 % → 71 %')
  })

  it('shows energy, money and payback in Spanish', () => {
    expect(formatKwh(1369.4)).toBe('1369 kWh')
    expect(formatKwh(12345)).toBe('12.345 kWh')
    expect(formatEurRounded(115.23)).toMatch(/^115\s€$/)
    expect(formatEurRounded(-1250.4)).toMatch(/^-1250\s€$/)
    expect(formatPayback(34.8)).toBe('35 años')
    expect(formatPayback(8.26)).toBe('8,3 años')
    expect(formatPayback(1)).toBe('1 año')
    expect(formatPayback(null)).toBe('Sin retorno')
    expect(formatPayback(20, 0)).toBe('Sin retorno')
  })

  const result = (id: number, saving: number, price: number): BatteryResult => ({
    Bateria: { Id: id, Modelo: `M${id}`, Fabricante: 'F', CapacidadUtilKwh: 5, Eficiencia: 0.9, LlenadoMedio: 0.75, PrecioEur: price, GarantiaAnios: 10 },
    CargaKwh: 1369,
    EntregadaKwh: 1232,
    ExcedenteDespuesKwh: 2031,
    ImportacionDespuesKwh: 1168,
    AutoconsumoAntesPct: 32,
    AutoconsumoDespuesPct: 56.6,
    AutarquiaAntesPct: 40,
    AutarquiaDespuesPct: 70.8,
    AhorroAnualEur: saving,
    RetornoAnios: price / saving,
    AhorroNeto10AniosEur: 10 * saving - price,
  })

  it('lists the best first and never twice', () => {
    const best = result(2, 300, 2000)
    const list = allResults({ Mejor: best, Alternativas: [result(1, 100, 4000), best, result(3, 50, 5000)] })
    expect(list.map((r) => r.Bateria.Id)).toEqual([2, 1, 3])
    expect(allResults(null)).toEqual([])
  })

  it('builds the 10-year table', () => {
    const rows = tenYearRows(result(1, 115, 4000))
    expect(rows).toHaveLength(10)
    expect(rows[0]).toEqual({ year: 1, cumulative: 115, net: -3885 })
    expect(rows[9]).toEqual({ year: 10, cumulative: 1150, net: -2850 })
  })
})

describe('prices of a savings period', () => {
  const period = { Id: 2025, Nombre: 'Año 2025', Desde: '2025-01-01', Hasta: '2025-12-31', PrecioImportacionMedioKwh: 0.131234, PrecioExcedenteMedioKwh: 0.054321 }
  it('are copied as they come (without taxes), or with electricity tax and VAT when the prices include them', () => {
    expect(periodPrices(period, false)).toEqual({ PrecioImportacionKwh: 0.1312, PrecioExcedenteKwh: 0.0543 })
    expect(TAX_FACTOR).toBeCloseTo(1.27186, 5)
    expect(periodPrices(period, true)).toEqual({ PrecioImportacionKwh: 0.1669, PrecioExcedenteKwh: 0.0691 })
  })
})
