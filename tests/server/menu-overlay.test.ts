import { describe, expect, it } from 'vitest'
import type { MenuDefinition, MenuEntry } from '../../schemas/menu'
import { loadDefaultMenu } from '../../server/manifest/manifest-data'
import { describeMenuChanges } from '../../server/manifest/menu-changes'
import { applyOverlay, diffMenu } from '../../server/manifest/menu-overlay'

const shipped = loadDefaultMenu()

function find(menu: MenuDefinition, key: string): MenuEntry {
  let hit: MenuEntry | undefined
  const visit = (list: MenuEntry[]) => list.forEach((e) => (e.key === key ? (hit = e) : visit((e.items ?? []) as MenuEntry[])))
  visit(menu.sections as MenuEntry[])
  if (!hit) throw new Error(`no ${key}`)
  return hit
}
const keysOf = (e: MenuEntry) => (e.items ?? []).map((i) => i.key)

/** Edits an admin can make in the manager, each applied to a fresh copy of the shipped menu. */
const edits: [string, (m: MenuDefinition) => void][] = [
  ['rename with English', (m) => (find(m, 'facturas').label = { es: 'Mis facturas', en: 'My invoices' })],
  ['hide', (m) => (find(m, 'agentes').hidden = true)],
  ['change the permission', (m) => (find(m, 'sips').permission = 'GESTORACCESS')],
  ['drop a field', (m) => delete find(m, 'facturas').icon],
  ['reorder a section', (m) => find(m, 'contratos').items!.reverse()],
  ['reorder the sections', (m) => m.sections.reverse()],
  [
    'move an entry to another section',
    (m) => {
      const utilidades = find(m, 'utilidades')
      const sips = utilidades.items!.find((e) => e.key === 'sips')!
      utilidades.items = utilidades.items!.filter((e) => e.key !== 'sips')
      find(m, 'contratos').items!.push(sips)
    },
  ],
  ['add an external link', (m) => find(m, 'comercial').items!.push({ key: 'tarifas', label: { es: 'Tarifas' }, icon: 'pi pi-external-link', href: 'https://example.com/tarifas' })],
  ['add a section', (m) => m.sections.splice(1, 0, { key: 'enlaces', label: { es: 'Enlaces' }, items: [{ key: 'omie', label: { es: 'OMIE' }, href: 'https://www.omie.es' }] })],
  ['remove an entry', (m) => (find(m, 'utilidades').items = find(m, 'utilidades').items!.filter((e) => e.key !== 'mapa'))],
]

describe('menu overlay: what an admin changes, stored on top of the shipped menu', () => {
  it.each(edits)('%s: applying the diff gives back the edited menu', (_name, edit) => {
    const edited = structuredClone(shipped)
    edit(edited)
    const overlay = diffMenu(shipped, edited)
    expect(applyOverlay(shipped, overlay)).toEqual(edited)
    // and survives being stored as JSON
    expect(applyOverlay(shipped, JSON.parse(JSON.stringify(overlay)))).toEqual(edited)
  })

  it('an untouched menu is an empty overlay', () => {
    expect(diffMenu(shipped, structuredClone(shipped))).toEqual({ entries: {}, moved: {}, order: {}, added: [], removed: [] })
  })

  it('a release that changes the defaults and the admin’s edits both survive', () => {
    const edited = structuredClone(shipped)
    find(edited, 'facturas').label = { es: 'Mis facturas', en: 'Invoices' }
    find(edited, 'contratos').items!.reverse()
    find(edited, 'agentes').hidden = true
    const overlay = diffMenu(shipped, edited)

    // The next release: a new entry in Contratos, a new icon for Sips, a removed entry.
    const release = structuredClone(shipped)
    find(release, 'contratos').items!.push({ key: 'contratos-borradores', label: { es: 'Borradores' }, to: '/soluciones/contratos/listado' })
    find(release, 'sips').icon = 'pi pi-search'
    find(release, 'utilidades').items = find(release, 'utilidades').items!.filter((e) => e.key !== 'mapa')

    const result = applyOverlay(release, overlay)
    expect(find(result, 'facturas').label.es).toBe('Mis facturas')
    expect(find(result, 'agentes').hidden).toBe(true)
    expect(find(result, 'sips').icon).toBe('pi pi-search')
    expect(() => find(result, 'mapa')).toThrow()
    // the admin's order first, the release's new entry after it
    expect(keysOf(find(result, 'contratos'))).toEqual([...keysOf(find(edited, 'contratos')), 'contratos-borradores'])
  })

  it('skips tweaks that name entries a release removed, never failing', () => {
    const edited = structuredClone(shipped)
    find(edited, 'mapa').label = { es: 'Mapa de suministros' }
    const overlay = diffMenu(shipped, edited)
    const release = structuredClone(shipped)
    find(release, 'utilidades').items = find(release, 'utilidades').items!.filter((e) => e.key !== 'mapa')
    expect(applyOverlay(release, overlay)).toEqual(release)
  })

  it('describes the changes in Spanish sentences', () => {
    const edited = structuredClone(shipped)
    edits.forEach(([, edit]) => edit(edited))
    const texts = describeMenuChanges(shipped, edited).map((c) => c.text)
    expect(texts).toEqual(
      expect.arrayContaining([
        '«Facturas» se llama ahora «Mis facturas».',
        'Texto en inglés de «Mis facturas»: «Invoices» → «My invoices».',
        '«Agentes» queda oculta.',
        '«Sips» requiere ahora el permiso GESTORACCESS.',
        'Icono de «Mis facturas»: pi pi-receipt → ninguno.',
        '«Sips» pasa de «Utilidades» a «Contratos».',
        'Añadida la entrada «Tarifas» en «Comercial».',
        'Añadida la entrada «Enlaces» en el nivel superior.',
        'Eliminada la entrada «Mapa».',
      ]),
    )
    expect(texts.some((t) => t.startsWith('Nuevo orden en el nivel superior: '))).toBe(true)
  })
})
