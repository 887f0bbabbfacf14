import { PAGING_PARAMS } from '../../schemas/catalogue/paging'
import { callName, type CallIndex } from '../../schemas/catalogue/match'
import type { ScreenFile } from '../../schemas/screen'
import { SKIP, visitValues } from '../../schemas/screen-walk'

/**
 * A screen may call only what the endpoint catalogue declares: every `api/…` endpoint it names
 * (tables, details, options, validators, exports, actions, form loads and submits) must be a
 * catalogued call of that method, and every query parameter it sends one the call declares.
 * Checked when screens are loaded, so a typo stops the start instead of a user's click.
 * The first problem, with its JSON path, or null.
 */
export function screenCallProblem(screen: ScreenFile, catalogue: CallIndex): string | null {
  let problem: string | null = null
  visitValues(
    screen.root,
    (value, at) => {
      if (problem) return SKIP
      const o = value as Record<string, unknown> | null
      if (!o || typeof o !== 'object' || Array.isArray(o) || typeof o.endpoint !== 'string' || !o.endpoint.startsWith('api/')) return
      const method = typeof o.method === 'string' ? o.method : 'GET'
      const call = catalogue.findTemplate(method, o.endpoint)
      if (!call) {
        problem = `${at.path}: la llamada ${method} ${o.endpoint} no está en el catálogo de llamadas.`
        return SKIP
      }
      const declared = new Set([...Object.keys(call.query ?? {}), ...(call.list ? PAGING_PARAMS : [])])
      const sent = [...Object.keys((o.params as Record<string, unknown> | undefined) ?? {}), ...(typeof o.param === 'string' ? [o.param] : [])]
      // `filterColumns[0]` is the array parameter `filterColumns`.
      const unknown = sent.find((name) => !declared.has(name.replace(/\[\d*\]$/, '')))
      if (unknown) {
        problem = `${at.path}: ${callName(call)} no admite el parámetro «${unknown}».`
        return SKIP
      }
    },
    '/root',
  )
  return problem
}
