import { describe, expect, it } from 'vitest'
import provincias from '../../server/reference-api/data/provincias.json'
import { atlasProvinces, spainGeometry } from '../../client/widgets/spain-map/geo'
import { buildScale, classFill, contractsListUrl, matchProvinces, nameKeys, nice, normalizeName, provinceLabel } from '../../client/widgets/spain-map/map-logic'
import type { ProvinceRow } from '../../schemas/business/map'

const rows: ProvinceRow[] = provincias.map((p) => ({ ProvinciaId: p.Id, Provincia: p.Nombre, Contratos: p.Id * 2, ContratosActivos: p.Id, PuntosSuministro: p.Id * 3, ConsumoAnualKwh: p.Id * 1000 }))

describe('atlas ↔ API provinces', () => {
  const atlas = atlasProvinces().map((f) => ({ id: String(f.id), name: f.properties.name }))

  it('the atlas has the 52 provinces (Gibraltar left out)', () => {
    expect(atlas).toHaveLength(52)
    expect(new Set(atlas.map((a) => a.id)).size).toBe(52)
  })

  it('matches all 52 by code, each to its own row', () => {
    const m = matchProvinces(atlas, rows)
    expect(m.size).toBe(52)
    for (const a of atlas) expect(m.get(a.id)?.ProvinciaId).toBe(Number(a.id))
    expect(new Set([...m.values()]).size).toBe(52)
  })

  it('matches all 52 by name when the codes are of no use', () => {
    const scrambled = rows.map((r) => ({ ...r, ProvinciaId: r.ProvinciaId + 100 }))
    const m = matchProvinces(atlas, scrambled)
    expect(m.size).toBe(52)
    for (const a of atlas) expect(m.get(a.id)?.ProvinciaId).toBe(Number(a.id) + 100)
  })

  it('matches names across accents, case, bilingual forms and old spellings', () => {
    const other = (names: string[]) => names.map((n, i) => ({ ProvinciaId: 900 + i, Provincia: n, Contratos: 0, ContratosActivos: 0, PuntosSuministro: 0, ConsumoAnualKwh: 0 }))
    const a = [
      { id: 'x1', name: 'Alacant/Alicante' },
      { id: 'x2', name: 'Castelló/Castellón' },
      { id: 'x3', name: 'València/Valencia' },
      { id: 'x4', name: 'Illes Balears' },
      { id: 'x5', name: 'A Coruña' },
      { id: 'x6', name: 'Bizkaia' },
      { id: 'x7', name: 'Araba/Álava' },
    ]
    const m = matchProvinces(a, other(['ALICANTE', 'Castellón', 'valencia', 'Islas Baleares', 'La Coruña', 'Vizcaya', 'Álava']))
    expect([...a].map((x) => m.get(x.id)?.Provincia)).toEqual(['ALICANTE', 'Castellón', 'valencia', 'Islas Baleares', 'La Coruña', 'Vizcaya', 'Álava'])
    expect(normalizeName('  Santa Cruz de  Tenerife ')).toBe('santa cruz de tenerife')
    expect(nameKeys('Araba/Álava')).toEqual(['araba alava', 'araba', 'alava'])
  })
})

describe('geometry', () => {
  const g = spainGeometry()

  it('draws 52 provinces with paths inside the box', () => {
    expect(g.provinces).toHaveLength(52)
    for (const p of g.provinces) {
      expect(p.d.length, p.name).toBeGreaterThan(20)
      expect(p.bounds[0][0]).toBeGreaterThanOrEqual(0)
      expect(p.bounds[0][1]).toBeGreaterThanOrEqual(0)
      expect(p.bounds[1][0]).toBeLessThanOrEqual(g.width)
      expect(p.bounds[1][1]).toBeLessThanOrEqual(g.height)
    }
  })

  it('puts the Canary Islands in their inset box, clear of the mainland', () => {
    const box = g.inset
    const canary = g.provinces.filter((p) => p.inset)
    expect(canary.map((p) => p.id).sort()).toEqual(['35', '38'])
    for (const p of canary) {
      expect(p.bounds[0][0]).toBeGreaterThanOrEqual(box.x)
      expect(p.bounds[1][1]).toBeLessThanOrEqual(box.y + box.height)
    }
    for (const p of g.provinces.filter((x) => !x.inset)) {
      const overlaps = p.bounds[0][0] < box.x + box.width && p.bounds[1][0] > box.x && p.bounds[0][1] < box.y + box.height && p.bounds[1][1] > box.y
      expect(overlaps, p.name).toBe(false)
    }
  })

  it('gives Ceuta and Melilla a marker big enough to point at', () => {
    const small = g.provinces.filter((p) => p.marker).map((p) => p.id).sort()
    expect(small).toEqual(['51', '52'])
  })
})

describe('colour scale', () => {
  it('splits skewed counts at quantiles, zero apart', () => {
    const values = [0, 0, 1, 2, 2, 3, 4, 5, 8, 9, 12, 20, 40, 90, 300]
    const s = buildScale(values, 5)
    expect(s.classes).toBeGreaterThan(2)
    expect(s.classes).toBeLessThanOrEqual(5)
    expect(s.classOf(0)).toBe(0)
    expect(s.classOf(1)).toBe(1)
    expect(s.classOf(300)).toBe(s.classes)
    // monotonic
    let last = 0
    for (const v of [...values].sort((a, b) => a - b)) {
      expect(s.classOf(v)).toBeGreaterThanOrEqual(last)
      last = s.classOf(v)
    }
    // the legend covers zero and every class, with integer ranges that do not overlap
    expect(s.legend.map((l) => l.cls)).toEqual([0, ...Array.from({ length: s.classes }, (_, i) => i + 1)])
    expect(s.legend[0]!.label).toBe('0')
    expect(s.legend[s.legend.length - 1]!.label).toMatch(/300$/)
  })

  it('describes each class by the range of values it takes', () => {
    const s = buildScale([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 5)
    expect(s.thresholds).toEqual([3, 5, 7, 9])
    expect(s.legend.map((l) => l.label)).toEqual(['0', '1–2', '3–4', '5–6', '7–8', '9–10'])
    for (const [v, c] of [[1, 1], [2, 1], [3, 2], [6, 3], [9, 5], [10, 5]] as const) expect(s.classOf(v)).toBe(c)
  })

  it('copes with all zeros, one value, and large numbers', () => {
    expect(buildScale([0, 0, 0]).classes).toBe(0)
    expect(buildScale([0, 0, 0]).legend).toEqual([{ cls: 0, label: '0' }])
    const one = buildScale([0, 5, 5, 5])
    expect(one.classes).toBe(1)
    expect(one.legend[1]!.label).toBe('5')
    expect(nice(123456)).toBe(120000)
    expect(nice(47)).toBe(47)
    const big = buildScale([1234, 56789, 345678, 2345678, 9876543], 5, String)
    expect(big.thresholds.every((t) => String(t).replace(/0+$/, '').length <= 2)).toBe(true)
  })

  it('colours classes from the card surface towards the primary colour', () => {
    expect(classFill(0, 5)).toBe('var(--surface-ground)')
    expect(classFill(1, 5)).toContain('20%')
    expect(classFill(5, 5)).toContain('100%')
    expect(classFill(1, 1)).toContain('100%')
  })
})

describe('labels and links', () => {
  it('names a province with its figure', () => {
    const madrid = rows.find((r) => r.ProvinciaId === 28)!
    expect(provinceLabel('Madrid', { ...madrid, Contratos: 48 }, 'Contratos')).toBe('Madrid: 48 contratos')
    expect(provinceLabel('Soria', { ...madrid, Contratos: 1 }, 'Contratos')).toBe('Soria: 1 contrato')
    expect(provinceLabel('Teruel', undefined, 'PuntosSuministro')).toBe('Teruel: 0 puntos de suministro')
    expect(provinceLabel('Cádiz', { ...madrid, ConsumoAnualKwh: 1500 }, 'ConsumoAnualKwh', String)).toBe('Cádiz: 1500 kWh al año')
  })

  it('leads to the contracts list filtered by province', () => {
    expect(contractsListUrl('/soluciones/contratos/listado', 'Cádiz')).toBe('/soluciones/contratos/listado?f.Provincia=C%C3%A1diz')
    expect(new URLSearchParams(contractsListUrl('/soluciones/contratos/listado', 'Araba/Álava').split('?')[1]).get('f.Provincia')).toBe('Araba/Álava')
  })
})
