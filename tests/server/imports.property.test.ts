import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkJsonBody } from '../../server/catalogue/call-check'
import { loadCatalogue } from '../../server/catalogue/catalogue-loader'
import { resolveImport } from '../../server/imports/import-definitions'
import { loadImports, SHIPPED_IMPORTS_DIR } from '../../server/imports/import-definitions'
import { checkRow } from '../../server/imports/row-check'
import { loadScreens } from '../../server/screens/screen-loader'
import { SHIPPED_SCREENS_DIR } from '../../server/manifest/manifest-data'

/**
 * The dry run is the catalogue's body check, never looser: for an import whose columns are the
 * call's own body fields, a row passes exactly when the catalogue accepts the body its cells map
 * to; for an import with a form's rules on top, a row that passes always has a body the
 * catalogue accepts.
 */

const catalogue = loadCatalogue()
const screens = loadScreens(SHIPPED_SCREENS_DIR, catalogue)
const NO_OPTIONS = { options: new Map() }

/** Cells as people type them: numbers with spaces, signs and decimals, codes, blanks, long text. */
const cell = fc.oneof(
  fc.constant(''),
  fc.constant('   '),
  fc.integer({ min: -5, max: 1_000_000 }).map(String),
  fc.integer({ min: 0, max: 50 }).map((n) => ` ${n} `),
  fc.double({ min: -10, max: 100, noNaN: true }).map((n) => String(n)),
  fc.stringMatching(/^[A-Z]{2}-\d{4}-\d{6}$/),
  fc.string({ maxLength: 60 }),
  fc.string({ minLength: 38, maxLength: 44 }),
)

describe('dry run and catalogue body check', () => {
  it('a row of a catalogue-only import passes iff the catalogue accepts the body its cells map to', () => {
    const imp = resolveImport(
      { id: 'propiedad', call: 'renewal.changeSubstate', title: { es: 'Prueba' }, fileName: 'prueba', example: {}, recordField: 'CodigoContrato', undo: { kind: 'restore', read: 'renewal.list', key: 'CodigoContrato', field: 'SubestadoId' } },
      catalogue,
      screens,
    )
    fc.assert(
      fc.property(cell, cell, (codigo, subestado) => {
        const cells = { CodigoContrato: codigo, SubestadoId: subestado }
        const mapped: Record<string, string> = {}
        for (const [k, v] of Object.entries(cells)) if (v.trim() !== '') mapped[k] = v.trim()
        const accepted = checkRow(imp, cells, NO_OPTIONS).body !== null
        expect(accepted).toBe(checkJsonBody(imp.call, mapped) === null)
      }),
      { numRuns: 2000 },
    )
  })

  it('a sign-up row the dry run accepts always has a body the catalogue accepts', () => {
    const imp = loadImports(SHIPPED_IMPORTS_DIR, catalogue, screens).get('contratos-altas')!
    const example = Object.fromEntries(imp.columns.map((c) => [c.name, c.example]))
    const names = imp.columns.map((c) => c.name)
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...names), cell), { maxLength: 6 }), (changes) => {
        const cells = { ...example, ...Object.fromEntries(changes) }
        const check = checkRow(imp, cells, NO_OPTIONS)
        if (check.body) expect(checkJsonBody(imp.call, check.body)).toBeNull()
        else expect(check.problems.length).toBeGreaterThan(0)
      }),
      { numRuns: 1000 },
    )
    // The example itself passes (with no options to compare with).
    expect(checkRow(imp, example, NO_OPTIONS).problems).toEqual([])
  })
})
