import { api, ApiError } from '../api/client'
import { messageIn } from '../i18n/i18n'
import { messages } from './messages'

/** What a route check receives: the path parameters and the query string. */
export interface CheckInput {
  params: Record<string, string | undefined>
  search: URLSearchParams
}

/** A named route check: true lets the route render, false gives the 404 page. */
export interface RouteCheck {
  run: (input: CheckInput) => Promise<boolean>
  /**
   * Toast title and message when the check itself cannot run (spec §8), where they deliberately
   * differ from what the endpoint catalogue says for the failed call; left out, the catalogue speaks.
   */
  area?: string
  errorMessage?: string
}

export class UnknownRouteCheckError extends Error {}

/** True when the contract exists and is readable; false on 400/404 (unknown or malformed reference). */
async function contractExists(code: string | null | undefined): Promise<boolean> {
  if (!code || !/^[A-Za-z0-9-]{3,40}$/.test(code)) return false
  try {
    await api.get('/api/contract/id', { params: { codigo: code } })
    return true
  } catch (err) {
    if (err instanceof ApiError && (err.status === 400 || err.status === 404 || err.status === 403)) return false
    throw err
  }
}

/** The checks routes name in the manifest (spec §2). */
export const ROUTE_CHECKS: Record<string, RouteCheck> = {
  'contract-detail': {
    run: ({ params }) => contractExists(params.referencia),
  },
  // Sign-up runs it for `?duplicar=<code>`: without the parameter there is nothing to check. Its
  // failure is the sign-up's, with the spec's own message, not the contract detail's.
  'duplicate-route': {
    run: async ({ search }) => (search.has('duplicar') ? contractExists(search.get('duplicar')) : true),
    // Read when the check runs, so in the language of the moment.
    get area() {
      return messageIn(messages, 'check.duplicate.area')
    },
    get errorMessage() {
      return messageIn(messages, 'check.duplicate.message')
    },
  },
}

/**
 * How long a check's answer stands: a check run on a link's intent (use-route-intent.ts) lets
 * the click that follows draw the page at once. A page opened later checks again.
 */
export const CHECK_FRESH_MS = 5_000

/** The query of a route's check at `pathname` (and `search`): what the page waits for, and what intent runs ahead. */
export function routeCheckQuery(check: string, params: Record<string, string | undefined>, pathname: string, search: string) {
  return {
    queryKey: ['route-check', check, pathname, search],
    queryFn: () => runRouteCheck(check, { params, search: new URLSearchParams(search) }),
    staleTime: CHECK_FRESH_MS,
    gcTime: CHECK_FRESH_MS,
  }
}

/** Runs a named check; an unknown name is an error (spec §8), shown by the error page. */
export function runRouteCheck(name: string, input: CheckInput): Promise<boolean> {
  const check = ROUTE_CHECKS[name]
  if (!check) return Promise.reject(new UnknownRouteCheckError(name))
  return check.run(input)
}
