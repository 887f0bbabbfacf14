import { describe, expect, it } from 'vitest'
import type { ResolvedMenuEntry } from '../../schemas/menu'
import { loadDefaultMenu } from '../../server/manifest/manifest-data'
import { resolveMenu } from '../../server/manifest/menu-filter'

const menu = loadDefaultMenu()
const ADMIN = new Set(['VERRENOVACIONES', 'GESTORACCESS', 'MENUPRODUCTOSBATERIAS'])
const AGENTE = new Set<string>()
const COMPARADOR = 'https://comparador.example.es'

/** `section` or `section/entry` or `section/group/entry` keys, with where leaves lead. */
function flatten(entries: ResolvedMenuEntry[], prefix = ''): string[] {
  return entries.flatMap((e) => {
    const key = prefix ? `${prefix}/${e.key}` : e.key
    if (e.items) return [key, ...flatten(e.items, key)]
    return [`${key} → ${e.to ?? e.href ?? `[${e.command}]`}`]
  })
}

function view(brand: string, permissions: Set<string>, production: boolean) {
  return flatten(resolveMenu(menu, { brand, permissions, production, comparadorUrl: COMPARADOR }))
}

const sections = (lines: string[]) => lines.filter((l) => !l.includes('/') && !l.includes('→'))

describe.each(['verde', 'grupo', 'limpia'])('menu of brand %s', (brand) => {
  describe.each([
    ['admin', ADMIN],
    ['agente', AGENTE],
  ] as const)('for %s', (who, perms) => {
    describe.each([
      ['development', false],
      ['production', true],
    ] as const)('in %s', (_env, production) => {
      const lines = view(brand, perms, production)

      it('gates entries by permission (spec §6)', () => {
        const admin = who === 'admin'
        expect(lines.some((l) => l.startsWith('contratos/renovaciones'))).toBe(admin)
        expect(sections(lines).includes('usuarios')).toBe(admin)
        expect(sections(lines).includes('sysmanager')).toBe(admin)
        expect(sections(lines).includes('productos')).toBe(admin)
        // entries without permission are visible to every signed-in user
        expect(lines).toContain('contratos/contratos-listado → /soluciones/contratos/listado')
        expect(lines).toContain('comercial/agentes → /agentes/listado')
        expect(lines).toContain('utilidades/sips → /utilidades/sips')
      })

      it('shows dev-only entries only outside production', () => {
        expect(lines.includes('contratos/contratos-contrato → [contract-code-dialog]')).toBe(!production)
        expect(lines.includes('utilidades/mapa → /utilidades/map')).toBe(!production)
        expect(sections(lines).includes('auth')).toBe(!production)
        // The menu manager is no longer dev-only (issue 6): admins reach it from the menu in production too.
        expect(lines.includes('sysmanager/sysmanager-usuarios/menu-manager → /sysmanager/menumanager')).toBe(who === 'admin')
      })

      it('applies the brand rules of the Comparador (spec §1)', () => {
        const comparador = lines.filter((l) => l.startsWith('comparador'))
        if (brand === 'limpia') {
          expect(comparador).toEqual([])
        } else if (brand === 'grupo') {
          expect(comparador).toEqual(['comparador', 'comparador/comparador-historico → /soluciones/comparador/historico'])
        } else if (production) {
          expect(comparador).toEqual([
            'comparador',
            `comparador/comparador-comparativa → ${COMPARADOR}/comparativa`,
            `comparador/comparador-listado → ${COMPARADOR}/listado`,
            'comparador/comparador-historico → /soluciones/comparador/historico',
          ])
        } else {
          expect(comparador).toEqual([
            'comparador',
            'comparador/comparador-comparativa → /soluciones/comparador/comparativa',
            'comparador/comparador-listado → /soluciones/comparador/listado',
            'comparador/comparador-historico → /soluciones/comparador/historico',
          ])
        }
      })

      it('hides sections with no visible entry', () => {
        const resolved = resolveMenu(menu, { brand, permissions: perms, production, comparadorUrl: COMPARADOR })
        const empty = (e: ResolvedMenuEntry): boolean => (e.items ? e.items.length === 0 || e.items.some(empty) : false)
        expect(resolved.some(empty)).toBe(false)
      })
    })
  })
})

it('keeps the section order of the spec for an admin in development', () => {
  expect(sections(view('verde', ADMIN, false))).toEqual([
    'home',
    'contratos',
    'documentacion',
    'comparador',
    'comercial',
    'usuarios',
    'sysmanager',
    'utilidades',
    'productos',
    'auth',
  ])
})

it('hides an entry marked hidden and the group it leaves empty', () => {
  const edited = structuredClone(menu)
  const productos = edited.sections.find((s) => s.key === 'productos')!
  productos.items![0]!.hidden = true
  expect(sections(flatten(resolveMenu(edited, { brand: 'verde', permissions: ADMIN, production: false, comparadorUrl: COMPARADOR })))).not.toContain(
    'productos',
  )
})
