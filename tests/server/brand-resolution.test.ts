import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { brandLabelFromHost, loadBrands } from '../../server/brand/brand-registry'

const brands = loadBrands(path.resolve('brands'))

describe('brand from the Host header (second label of the host name)', () => {
  it.each([
    // 1 label
    ['localhost', 'verde'],
    ['localhost:3000', 'verde'],
    // 2 labels: the second label is the TLD, not a brand
    ['energialimpia.es', 'verde'],
    // 3 labels: portal.<brand>.<tld>
    ['portal.energialimpia.es', 'limpia'],
    ['portal.grupoenergia.es', 'grupo'],
    ['portal.energiaverde.es', 'verde'],
    ['portal.energialimpia.localhost:3000', 'limpia'],
    ['PORTAL.GrupoEnergia.ES', 'grupo'],
    ['portal.grupoenergia.es.', 'grupo'],
    // 4 and 5 labels: still the second label decides
    ['portal.energialimpia.example.com', 'limpia'],
    ['x.grupoenergia.a.b.c', 'grupo'],
    ['a.b.energialimpia.es', 'verde'],
    // unknown labels and IPs fall back to the green-energy default
    ['portal.otramarca.es', 'verde'],
    ['127.0.0.1', 'verde'],
    ['127.0.0.1:3000', 'verde'],
    ['[::1]:3000', 'verde'],
    ['::1', 'verde'],
    ['', 'verde'],
  ])('%s → %s', (host, key) => {
    expect(brands.resolve(host).key).toBe(key)
  })

  it('reads the second label, lower case, without port', () => {
    expect(brandLabelFromHost('Portal.EnergiaLimpia.es:8443')).toBe('energialimpia')
    expect(brandLabelFromHost('10.1.2.3')).toBeNull()
    expect(brandLabelFromHost(undefined)).toBeNull()
  })

  it('loads three valid brands with their domains, names and themes', () => {
    expect(brands.all.map((b) => [b.key, b.Domain, b.Theme])).toEqual([
      ['grupo', 'grupoenergia.es', 'lara-light-cyan'],
      ['limpia', 'energialimpia.es', 'lara-light-teal'],
      ['verde', 'energiaverde.es', 'lara-light-green'],
    ])
    expect(new Set(brands.all.map((b) => b.Name)).size).toBe(3)
  })
})
