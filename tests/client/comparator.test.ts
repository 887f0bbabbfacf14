import { describe, expect, it } from 'vitest'
import { buildBody, costParts, emptyForm, exampleValues, periodsFor, readSaved, validate, type Tarifa } from '../../client/widgets/comparator/comparator-logic'

const T20: Tarifa = { Id: 1, Codigo: '2.0TD', Nombre: '2.0TD', PeriodosEnergia: 3, PeriodosPotencia: 2, PotenciaMaximaKw: 15 }
const T30: Tarifa = { Id: 2, Codigo: '3.0TD', Nombre: '3.0TD', PeriodosEnergia: 6, PeriodosPotencia: 6, PotenciaMaximaKw: null }

describe('comparison form', () => {
  it('shows the periods of the tariff', () => {
    expect(periodsFor(T20)).toEqual({ energia: ['P1', 'P2', 'P3'], potencia: ['P1', 'P2'] })
    expect(periodsFor(T30).energia).toHaveLength(6)
  })

  it('asks for every shown period and nothing else', () => {
    const errors = validate(emptyForm(), T20)
    expect(Object.keys(errors).sort()).toEqual(
      ['ConsumoAnualKwh.P1', 'ConsumoAnualKwh.P2', 'ConsumoAnualKwh.P3', 'EnergiaKwh.P1', 'EnergiaKwh.P2', 'EnergiaKwh.P3', 'PotenciaKwDia.P1', 'PotenciaKwDia.P2', 'PotenciasKw.P1', 'PotenciasKw.P2'].sort(),
    )
    const filled = { ...emptyForm(), ...exampleValues(T20) }
    expect(validate(filled, T20)).toEqual({})
    expect(validate({ ...filled, PotenciasKw: { ...filled.PotenciasKw, P1: 20 } }, T20)['PotenciasKw.P1']).toMatch(/15 kW/)
  })

  it('sends null for the periods the tariff lacks, and the optional texts only when given', () => {
    const values = { ...emptyForm(), ...exampleValues(T20), Nombre: '  Casa  ', Cliente: '' }
    values.EnergiaKwh.P5 = 0.3
    const body = buildBody(values, T20, true)
    expect(body).toMatchObject({ Nombre: 'Casa', TarifaId: 1, Guardar: true })
    expect(body.Cliente).toBeUndefined()
    expect(body.PotenciasKw).toEqual({ P1: 4.6, P2: 4.6, P3: null, P4: null, P5: null, P6: null })
    expect(body.PreciosActuales.EnergiaKwh.P5).toBeNull()
    expect(buildBody(values, T20).Guardar).toBeUndefined()
  })

  it('reopens a saved comparison', () => {
    const input = buildBody({ ...emptyForm(), ...exampleValues(T20), Nombre: 'Casa' }, T20)
    const result = { Id: 7, Actual: { ImporteAnualEur: 900, EnergiaEur: 500, PotenciaEur: 200, ImpuestosEur: 180 }, Ofertas: [], Mejor: 'fijo' as const }
    const a = readSaved({ Id: 7, Nombre: 'Casa', Entrada: input, Resultado: result })
    expect(a.id).toBe(7)
    expect(a.values.PotenciasKw.P1).toBe(4.6)
    expect(a.result?.Actual.ImporteAnualEur).toBe(900)
    expect(costParts(result.Actual)).toEqual({ energia: 500, potencia: 200, impuestos: 180, otros: 20 })
  })
})
