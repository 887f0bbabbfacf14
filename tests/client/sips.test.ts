import { describe, expect, it } from 'vitest'
import {
  cupsFromFile,
  lastMonthsTotal,
  listSummary,
  monthlySeries,
  normalizeCups,
  parseCupsList,
  periodsOf,
  readSipsUrl,
  writeSipsUrl,
} from '../../client/widgets/sips/sips-logic'
import type { SipsListItem, SipsReading } from '../../schemas/business/sips'

const A = 'ES0021000000000000RC'
const B = 'ES0021000000000001RK'
const C = 'ES0031405013365002YV0F'

describe('parseCupsList', () => {
  it('reads one per line', () => {
    expect(parseCupsList(`${A}\n${B}\r\n${C}`)).toEqual([A, B, C])
  })

  it('reads commas, semicolons, tabs, pipes and spaces as separators', () => {
    expect(parseCupsList(`${A},${B};${C}`)).toEqual([A, B, C])
    expect(parseCupsList(`${A} ${B}\t${C}`)).toEqual([A, B, C])
    expect(parseCupsList(`${A} , ${B} ; ${C} | ${A}`)).toEqual([A, B, C])
  })

  it('drops blanks and keeps duplicates once (after normalising), in first-seen order', () => {
    expect(parseCupsList(`\n\n  ${B}\n\n${A}\n${B.toLowerCase()}\n ,, ;\n${A}\n`)).toEqual([B, A])
    expect(parseCupsList('')).toEqual([])
    expect(parseCupsList(' \n\t ,;')).toEqual([])
  })

  it('normalises case, dots and dashes, and keeps a CUPS written in groups as one', () => {
    expect(parseCupsList('es0021000000000001rk')).toEqual([B])
    expect(parseCupsList('ES-0021-0000-0000-0001-RK')).toEqual([B])
    expect(parseCupsList('ES 0021 0000 0000 0001 RK\nES 0031 4050 1336 5002 YV 0F')).toEqual([B, C])
    expect(parseCupsList(`ES 0021 0000 0000 0001 RK ${A}`)).toEqual([B, A])
  })

  it('keeps what is not a CUPS (the lookup says why) but drops a CUPS header and quotes', () => {
    expect(parseCupsList(`CUPS\n"${A}"\nhola\n'${B}'`)).toEqual([A, 'HOLA', B])
  })
})

describe('cupsFromFile', () => {
  it('takes the CUPS column of a CSV with a header', () => {
    const csv = `\uFEFFNombre;CUPS;Provincia\nAna;${A};Madrid\nLuis;${B};Cádiz\nRepetido;${A};Madrid\n`
    expect(cupsFromFile(csv, 'clientes.csv')).toEqual([A, B])
    expect(cupsFromFile(`cups,titular\n${C},X\n`, 'a.CSV')).toEqual([C])
  })

  it('reads any other file as a pasted list', () => {
    expect(cupsFromFile(`${A}\n${B}\n`, 'lista.txt')).toEqual([A, B])
    expect(cupsFromFile(`${A};${B}`, 'sin-cabecera.csv')).toEqual([A, B])
  })
})

function lectura(inicio: string, activa: Partial<Record<'P1' | 'P2' | 'P3' | 'P4' | 'P5' | 'P6', number>>, tarifa = '2.0TD'): SipsReading {
  const all = { P1: null, P2: null, P3: null, P4: null, P5: null, P6: null, ...activa }
  return {
    FechaInicio: inicio,
    FechaFin: inicio.slice(0, 8) + '28',
    Tarifa: tarifa,
    ActivaKwh: all,
    ReactivaKvarh: { P1: 1, P2: null, P3: null, P4: null, P5: null, P6: null },
    PotenciaDemandadaKw: { P1: 3.1, P2: 2.2, P3: null, P4: null, P5: null, P6: null },
    TipoLectura: 'real',
  }
}

describe('monthlySeries', () => {
  const lecturas = [
    lectura('2024-02-01', { P1: 60, P2: 50, P3: 110 }),
    lectura('2024-01-01', { P1: 80, P2: 70, P3: 150 }),
    lectura('2024-03-01', { P1: 40, P2: 45, P3: 95 }),
  ]

  it('orders the months, names them in Spanish and keeps only the periods the tariff has', () => {
    const s = monthlySeries(lecturas)
    expect(s.months).toEqual(['2024-01', '2024-02', '2024-03'])
    expect(s.labels).toEqual(['ene 2024', 'feb 2024', 'mar 2024'])
    expect(s.periods).toEqual(['P1', 'P2', 'P3'])
    expect(s.data.P1).toEqual([80, 60, 40])
    expect(s.data.P3).toEqual([150, 110, 95])
    expect(s.data.P4).toEqual([0, 0, 0])
    expect(s.totals).toEqual([300, 220, 180])
  })

  it('handles six periods and readings that lack some of them', () => {
    const six = [lectura('2025-06-01', { P1: 1, P2: 2, P3: 3, P4: 4, P5: 5, P6: 6 }, '3.0TD'), lectura('2025-07-01', { P1: 1, P6: 10 }, '3.0TD')]
    const s = monthlySeries(six)
    expect(s.periods).toEqual(['P1', 'P2', 'P3', 'P4', 'P5', 'P6'])
    expect(s.data.P2).toEqual([2, 0])
    expect(s.totals).toEqual([21, 11])
  })

  it('is empty for no readings', () => {
    expect(monthlySeries([])).toMatchObject({ months: [], periods: [], totals: [] })
  })

  it('adds up the last 12 months per period (annual consumption)', () => {
    const many = Array.from({ length: 36 }, (_, i) => lectura(`${2022 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`, { P1: i, P2: 1, P3: 2 }))
    const total = lastMonthsTotal(many)
    expect(total.P1).toBe(Array.from({ length: 12 }, (_, k) => 24 + k).reduce((a, b) => a + b, 0))
    expect(total.P2).toBe(12)
    expect(total.Total).toBe(total.P1 + 12 + 24)
    expect(periodsOf(many, 'ReactivaKvarh')).toEqual(['P1'])
  })
})

describe('URL state', () => {
  it('round-trips the CUPS, the list and the view', () => {
    const state = { cups: B, list: [A, B, C], view: 'lista' as const }
    expect(readSipsUrl(writeSipsUrl(state))).toEqual(state)
    expect(readSipsUrl(new URLSearchParams(`cups=${B.toLowerCase()}`))).toEqual({ cups: B, list: [], view: 'uno' })
    expect(readSipsUrl(new URLSearchParams(`lista=${A},${B}`))).toEqual({ cups: '', list: [A, B], view: 'lista' })
    expect(writeSipsUrl({ cups: '', list: [], view: 'uno' }).toString()).toBe('')
  })

  it('normalises a CUPS', () => {
    expect(normalizeCups(' es 0021-0000.0000 0001 rk ')).toBe(B)
  })
})

describe('listSummary', () => {
  it('counts the rows by state', () => {
    const row = (Estado: SipsListItem['Estado']): SipsListItem => ({ Cups: 'x', Normalizado: 'X', Estado, Motivo: null, Info: null })
    expect(listSummary([row('ok'), row('ok'), row('invalido'), row('sin_datos')])).toEqual({ ok: 2, invalido: 1, sin_datos: 1 })
  })
})
