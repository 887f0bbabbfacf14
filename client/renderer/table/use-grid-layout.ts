import { useMemo } from 'react'
import type { TableNode } from '../../../schemas/screen'
import { reportError } from '../../api/errors'
import { usePreference } from '../../api/preferences'
import { useRenderContext } from '../context'
import { hasLayout, layoutOf, resetLayout, withDensity, withOrder, withPin, withWidth, type GridLayout } from './grid-layout'
import { parseTablePrefs, type Density, type Pin, type TablePrefs } from './table-prefs'

export interface GridLayoutController {
  layout: GridLayout
  /** The user changed something of the layout (so «Restablecer» has something to undo). */
  customised: boolean
  /** Each change resolves once it is saved, or once its failure is reported (never rejects). */
  setWidth(field: string, px: number): Promise<void>
  setPin(field: string, side: Pin | null): Promise<void>
  setDensity(density: Density): Promise<void>
  /** The shown columns in a new order (a header dragged). */
  setOrder(fields: readonly string[]): Promise<void>
  reset(): Promise<void>
}

/**
 * The grid's layout of one table, kept with its column choice and saved filters in the user's
 * preference `tabla:<screen>:<table>`; a failed save is toasted and the layout stays as it was.
 */
export function useGridLayout(node: TableNode, errorArea: string): GridLayoutController {
  const ctx = useRenderContext()
  const prefs = usePreference<TablePrefs>(`tabla:${ctx.screenId}:${node.id}`)
  const stored = useMemo(() => parseTablePrefs(prefs.value), [prefs.value])
  const save = (next: TablePrefs) => prefs.save(next).catch((err: unknown) => reportError(undefined, err, undefined, { area: errorArea }))
  return {
    layout: layoutOf(stored),
    customised: hasLayout(stored),
    setWidth: (field, px) => save(withWidth(stored, field, px)),
    setPin: (field, side) => save(withPin(stored, field, side)),
    setDensity: (density) => save(withDensity(stored, density)),
    setOrder: (fields) => save(withOrder(stored, fields)),
    reset: () => save(resetLayout(stored)),
  }
}
