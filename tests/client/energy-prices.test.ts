import { describe, expect, it } from 'vitest'
import {
  addDays,
  daysBetween,
  defaultRange,
  indexPeriods,
  localTime,
  quickRange,
  rangeError,
  resolutionQuery,
  readParams,
  stats,
  timeAxisFor,
  writeParams,
} from '../../client/widgets/energy-prices/prices-logic'

describe('date range defaults', () => {
  it('is the last 30 days up to the last day with prices', () => {
    expect(defaultRange('2026-11-21')).toEqual({ desde: '2026-10-23', hasta: '2026-11-21' })
    expect(daysBetween('2026-10-23', '2026-11-21') + 1).toBe(30)
  })

  it('crosses months, years and leap days, and never starts before the series', () => {
    expect(defaultRange('2025-03-01')).toEqual({ desde: '2025-01-31', hasta: '2025-03-01' })
    expect(defaultRange('2024-03-01')).toEqual({ desde: '2024-02-01', hasta: '2024-03-01' })
    expect(defaultRange('2023-01-10')).toEqual({ desde: '2023-01-01', hasta: '2023-01-10' })
  })

  it('is not fooled by daylight-saving changes (Madrid, last Sunday of March and October)', () => {
    expect(addDays('2025-03-29', 1)).toBe('2025-03-30')
    expect(addDays('2025-03-30', 1)).toBe('2025-03-31')
    expect(addDays('2025-10-26', -1)).toBe('2025-10-25')
    expect(daysBetween('2025-03-01', '2025-04-01')).toBe(31)
  })

  it('offers quick ranges ending at the last day', () => {
    expect(quickRange('dia', '2026-11-21')).toEqual({ desde: '2026-11-21', hasta: '2026-11-21' })
    expect(quickRange('7d', '2026-11-21')).toEqual({ desde: '2026-11-15', hasta: '2026-11-21' })
    expect(quickRange('12m', '2026-11-21')).toEqual({ desde: '2025-11-22', hasta: '2026-11-21' })
    expect(quickRange('12m', '2024-02-29')).toEqual({ desde: '2023-03-01', hasta: '2024-02-29' })
    expect(quickRange('anio', '2026-11-21')).toEqual({ desde: '2026-01-01', hasta: '2026-11-21' })
  })
})

describe('URL parameters', () => {
  it('fall back to the defaults when missing or wrong', () => {
    expect(readParams(new URLSearchParams(''), '2026-11-21')).toEqual({ desde: '2026-10-23', hasta: '2026-11-21', tarifa: 1, modalidad: 'sin_impuestos', fee: null, resolucion: 'auto' })
    expect(readParams(new URLSearchParams('desde=2026-12-01&hasta=2026-01-01&tarifa=x&fee=99&modalidad=raro'), '2026-11-21')).toEqual({
      desde: '2026-10-23',
      hasta: '2026-11-21',
      tarifa: 1,
      modalidad: 'sin_impuestos',
      fee: null,
      resolucion: 'auto',
    })
  })

  it('clamp a range that reaches outside the series', () => {
    expect(readParams(new URLSearchParams('desde=2022-06-01&hasta=2030-01-01'), '2026-11-21')).toMatchObject({ desde: '2023-01-01', hasta: '2026-11-21' })
    const long = readParams(new URLSearchParams('desde=2023-01-01&hasta=2027-06-01'), '2027-06-01')
    expect(daysBetween(long.desde, long.hasta) + 1).toBe(1461)
    expect(readParams(new URLSearchParams('desde=2027-01-01&hasta=2027-02-01'), '2026-11-21')).toMatchObject({ desde: '2026-10-23', hasta: '2026-11-21' })
  })

  it('round-trip', () => {
    const p = { desde: '2024-04-01', hasta: '2024-04-30', tarifa: 2, modalidad: 'con_impuestos' as const, fee: 7.5, resolucion: 'nativa' as const }
    expect(readParams(writeParams(p), '2026-11-21')).toEqual(p)
    // no fee: the offer's default, left to the API
    const q = { ...p, fee: null }
    expect(writeParams(q).has('fee')).toBe(false)
    expect(readParams(writeParams(q), '2026-11-21')).toEqual(q)
    expect(readParams(new URLSearchParams('fee=0'), '2026-11-21').fee).toBe(0)
  })

  it('keep the OMIE resolution asked for, within what the API answers', () => {
    const day = '2026-11-21'
    expect(readParams(new URLSearchParams('desde=2026-01-01&hasta=2026-03-31&resolucion=nativa'), day).resolucion).toBe('nativa')
    expect(readParams(new URLSearchParams('desde=2026-11-20&hasta=2026-11-21&resolucion=diaria'), day).resolucion).toBe('diaria')
    expect(readParams(new URLSearchParams('resolucion=horaria'), day).resolucion).toBe('auto')
    // Native over more than a year is not asked: the automatic choice instead.
    expect(readParams(new URLSearchParams('desde=2024-01-01&hasta=2026-11-21&resolucion=nativa'), day).resolucion).toBe('auto')
    expect(writeParams({ ...readParams(new URLSearchParams(''), day), resolucion: 'auto' }).has('resolucion')).toBe(false)
    expect(resolutionQuery('auto')).toEqual({})
    expect(resolutionQuery('nativa')).toEqual({ resolucion: 'nativa' })
    expect(rangeError('2025-11-22', '2026-11-21', day, 'nativa')).toBeNull()
    expect(rangeError('2025-11-20', '2026-11-21', day, 'nativa')).toMatch(/hasta un año/)
    expect(rangeError('2025-11-20', '2026-11-21', day, 'diaria')).toBeNull()
  })

  it('explain what is wrong with a range', () => {
    expect(rangeError('2026-10-01', '2026-10-31', '2026-11-21')).toBeNull()
    expect(rangeError('2026-11-01', '2026-10-31', '2026-11-21')).toMatch(/posterior/)
    expect(rangeError('2022-12-31', '2023-01-31', '2026-11-21')).toMatch(/01\/01\/2023/)
    expect(rangeError('2026-11-01', '2026-11-22', '2026-11-21')).toMatch(/21\/11\/2026/)
    expect(rangeError('2023-01-01', '2026-12-31', '2027-06-01')).toBeNull()
    expect(rangeError('2023-01-01', '2027-01-01', '2027-06-01')).toMatch(/4 años/)
    expect(rangeError('', '2026-10-31', '2026-11-21')).toMatch(/dos fechas/)
  })
})

describe('series helpers', () => {
  it('read Madrid local timestamps as the same wall-clock time', () => {
    const t = new Date(localTime('2025-10-26T02:45'))
    expect([t.getFullYear(), t.getMonth(), t.getDate(), t.getHours(), t.getMinutes()]).toEqual([2025, 9, 26, 2, 45])
    expect(new Date(localTime('2024-04-01')).getHours()).toBe(0)
    expect(localTime('nada')).toBeNaN()
  })

  it('pick the periods of the index that have values', () => {
    const p = (P1: number | null, P3: number | null) => ({ Fecha: '2026-01-01', PrecioMedioKwh: 0.1, PorPeriodo: { P1, P2: 0.1, P3, P4: null, P5: null, P6: null } })
    expect(indexPeriods([p(0.2, null), p(null, 0.05)])).toEqual(['P1', 'P2', 'P3'])
    expect(indexPeriods([])).toEqual([])
  })

  it('adapt the time axis to the resolution and the range', () => {
    expect(timeAxisFor('cuartohoraria', 1)).toEqual({ unit: 'hour', tooltipFormat: 'dd/MM/yyyy HH:mm' })
    expect(timeAxisFor('horaria', 7).unit).toBe('day')
    expect(timeAxisFor('cuartohoraria', 2).unit).toBe('day')
    expect(timeAxisFor('diaria', 30)).toEqual({ unit: 'day', tooltipFormat: 'dd/MM/yyyy' })
    expect(timeAxisFor('diaria', 365).unit).toBe('week')
    expect(timeAxisFor('diaria', 1000).unit).toBe('month')
  })

  it('summarise values', () => {
    expect(stats([3, -1, 4])).toEqual({ min: -1, max: 4, mean: 2 })
    expect(stats([])).toBeNull()
  })
})
