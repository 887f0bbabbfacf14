import { describe, expect, it } from 'vitest'
import { rowsFrom, screenWith, shippedTables, tablesIn, tweaksFrom, tweaksOf, type TableRows } from '../../client/widgets/menu-manager/columns-model'
import { loadScreens } from '../../server/screens/screen-loader'
import { SHIPPED_SCREENS_DIR } from '../../server/manifest/manifest-data'

/** The column editor on the studio's contract: tweaks written into the whole screen read back the same (nothing left "unsaved"). */

const shipped = loadScreens(SHIPPED_SCREENS_DIR).get('contratos-listado')!
const tables = shippedTables(shipped)
const state = { tables }
const fields = (screen: typeof shipped) => tablesIn(screen).get('contratos')!.columns.map((c) => `${c.field}:${typeof c.header === 'string' ? c.header : c.header.es}`)

describe('column tweaks over a whole screen', () => {
  it('the shipped screen has no tweaks, and saving none gives the shipped columns', () => {
    expect(tweaksOf(tables, shipped)).toEqual({ tables: {} })
    expect(screenWith(shipped, shipped, { tables: {} })).toEqual(shipped)
  })

  it('hiding, renaming and moving columns is saved into the screen and reads back the same', () => {
    const rows: TableRows = rowsFrom(state, { tables: {} })
    const list = rows.contratos!
    const edited = [list[2]!, list[0]!, ...list.slice(3)].map((r) => (r.field === 'Titular' ? { ...r, header: 'Cliente' } : r))
    const withHidden = [...edited.slice(0, 2), { ...list[1]!, hidden: true }, ...edited.slice(2)]
    const tweaks = tweaksFrom(state, { contratos: withHidden })
    const saved = screenWith(shipped, shipped, tweaks)
    expect(fields(saved).slice(0, 3)).toEqual(['Titular:Cliente', 'CodigoContrato:Código', 'Nif:NIF/CIF'])
    expect(fields(saved).some((f) => f.startsWith('Cups:'))).toBe(false)
    // the other column properties come along
    expect(tablesIn(saved).get('contratos')!.columns[1]).toMatchObject({ field: 'CodigoContrato', sortable: true, filter: { input: 'text' } })
    expect(tweaksOf(tables, saved)).toEqual(tweaks)
    // and a hidden column comes back with its shipped definition
    const shownAgain = screenWith(saved, shipped, { tables: {} })
    expect(fields(shownAgain)).toEqual(fields(shipped))
  })
})
