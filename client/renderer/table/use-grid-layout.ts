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
  setWidth(field: string, px: number): void
  setPin(field: string, side: Pin | null): void
  setDensity(density: Density): void
  /** The shown columns in a new order (a header dragged). */
  setOrder(fields: readonly string[]): void
  reset(): void
}

/**
 * The grid's layout of one table, kept with its column choice and saved filters in the user's
 * preference `tabla:<screen>:<table>`; a failed save is toasted and the layout stays as it was.
 */
export function useGridLayout(node: TableNode, errorArea: string): GridLayoutController {
  const ctx = useRenderContext()
  const prefs = usePreference<TablePrefs>(`tabla:${ctx.screenId}:${node.id}`)
  const stored = useMemo(() => parseTablePrefs(prefs.value), [prefs.value])
  const save = (next: TablePrefs) => void prefs.save(next).catch((err: unknown) => reportError(undefined, err, undefined, { area: errorArea }))
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
