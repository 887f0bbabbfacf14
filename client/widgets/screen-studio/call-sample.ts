import { api } from '../../api/client'
import type { CatalogueCall } from '../../api/screen-admin'
import { proposeColumns, proposeDataKey, type ColumnDesign } from './list-design'

/**
 * A first set of columns for a call, from one page of its real answer: a paged list (spec §7,
 * `Items`) or a plain array. Calls with required parameters cannot be sampled without them.
 */
export async function sampleColumns(call: CatalogueCall): Promise<{ paged: boolean; columns: ColumnDesign[]; dataKey: string }> {
  const paged = call.list?.mode === 'paged'
  const answer = await api.get<unknown>(`/${call.path}`, paged ? { params: { pageIndex: 0, pageSize: 5 } } : {})
  const rows = Array.isArray(answer) ? answer : ((answer as { Items?: unknown[] } | null)?.Items ?? [])
  const first = rows.find((r): r is Record<string, unknown> => !!r && typeof r === 'object' && !Array.isArray(r))
  const columns = first ? proposeColumns(first, call.list ?? null) : []
  return { paged: paged || (!Array.isArray(answer) && Array.isArray((answer as { Items?: unknown } | null)?.Items)), columns, dataKey: proposeDataKey(columns) }
}

/** Calls a list screen can read without parameters of its own. */
export const listableCall = (c: CatalogueCall) => !c.path.includes('{') && !Object.values(c.query ?? {}).some((p) => (p as { required?: boolean }).required)
