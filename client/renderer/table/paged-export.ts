import { useEffect, useState } from 'react'
import type { Column } from '../../../schemas/screen'
import { loadCallIndex } from '../../api/call-catalogue'
import type { QueryParams } from '../../api/client'

/** The header that asks the BFF for an export with personal data clear, holding the reason (percent-encoded: it may hold any letter). */
export const EXPORT_REASON_HEADER = 'X-Export-Reason'

/**
 * Whether the BFF builds this export from its list's pages (the catalogue's `list.pages`): such
 * an export takes the columns the user sees, and clear values with a reason. Calls an operator
 * adds are not known to the client: their exports stay the upstream's file.
 */
export async function isPagedExport(path: string): Promise<boolean> {
  if (!/^\/?api\//.test(path)) return false
  const index = await loadCallIndex()
  return !!index?.find('GET', path.replace(/^\//, ''))?.call.list?.pages
}

/** The same, once the catalogue's chunk is in (false until then, and when `enabled` is false). */
export function usePagedExport(path: string | null, enabled: boolean): boolean {
  const [paged, setPaged] = useState(false)
  useEffect(() => {
    if (!path || !enabled) return
    let live = true
    void isPagedExport(path).then((yes) => live && setPaged(yes))
    return () => {
      live = false
    }
  }, [path, enabled])
  return paged
}

/** The columns shown, in order, with their headers as the user reads them: a badge column exports the label it shows. */
export function exportColumnParams(columns: readonly Column[], header: (c: Column) => string): QueryParams {
  return { columns: columns.map((c) => c.labelField ?? c.field), labels: columns.map(header) }
}
