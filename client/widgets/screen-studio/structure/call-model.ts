import type { Endpoint } from '../../../../schemas/catalogue/endpoint'
import { CallIndex } from '../../../../schemas/catalogue/match'
import { PAGING_PARAMS } from '../../../../schemas/catalogue/paging'
import type { CallSpec } from '../../../../schemas/screen'
import type { CatalogueCall } from '../../../api/screen-admin'

/**
 * A screen's call (method, endpoint with its path parameters filled, query parameters) as the
 * editors pick it: a call of the endpoint catalogue, what fills each `{param}` of its path, and
 * the parameters it declares. Pure.
 */
export type Params = NonNullable<CallSpec['params']>

export interface CallChoice {
  call: CatalogueCall
  /** What fills each path parameter (a value or a template such as `{row.Id}`). */
  pathValues: Record<string, string>
}

// The index reads only each call's method and path, which the studio's catalogue gives as the BFF's does.
const indexes = new WeakMap<readonly CatalogueCall[], CallIndex>()
const indexOf = (calls: readonly CatalogueCall[]) => {
  let index = indexes.get(calls)
  if (!index) indexes.set(calls, (index = new CallIndex(calls as unknown as Endpoint[])))
  return index
}

/** The catalogued call a screen's endpoint (`api/contract/{data.Id}/facturas`) names, with its path values; null when none. */
export function choiceOf(method: string, endpoint: string | undefined, calls: readonly CatalogueCall[]): CallChoice | null {
  if (!endpoint) return null
  // A placeholder segment ({row.Id}) never equals a static segment, so it takes a parameter's place.
  const found = indexOf(calls).match(method.toUpperCase(), endpoint.replace(/^\/+/, '').split('?', 1)[0]!.split('/'))
  if (!found) return null
  // A parameter still written as itself (`{id}`) has not been filled yet.
  const pathValues = Object.fromEntries(Object.entries(found.pathParams).map(([name, v]) => [name, v === `{${name}}` ? '' : v]))
  return { call: found.call as unknown as CatalogueCall, pathValues }
}

/** The endpoint of a call with its path parameters filled (a missing one stays `{name}`, which the check then names). */
export const endpointOf = (call: CatalogueCall, pathValues: Record<string, string>) => call.path.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (_m, name: string) => pathValues[name] || `{${name}}`)

/** The path parameters of a catalogued call, in order. */
export const pathParamsOf = (call: CatalogueCall) => [...call.path.matchAll(/\{([A-Za-z][A-Za-z0-9]*)\}/g)].map((m) => m[1]!)

/** The query parameters a call declares (paging ones too for a paged list). */
export const queryNamesOf = (call: CatalogueCall | null | undefined): string[] => (call ? [...Object.keys(call.query ?? {}), ...(call.list ? PAGING_PARAMS : [])] : [])

/** Whether a call declares a query parameter, as the BFF checks it on save (`filterColumns[0]` is `filterColumns`). */
export const declares = (call: CatalogueCall, name: string) => queryNamesOf(call).includes(name.replace(/\[\d*\]$/, ''))

/** The call spec for a choice: its method, the endpoint filled, the parameters given; a body already written is kept. */
export function callSpecOf(choice: CallChoice, params: Params | undefined, previous?: Pick<Partial<CallSpec>, 'body'>): CallSpec {
  const method = choice.call.method as CallSpec['method']
  return {
    method,
    endpoint: endpointOf(choice.call, choice.pathValues),
    ...(params && Object.keys(params).length ? { params } : {}),
    ...(previous?.body !== undefined ? { body: previous.body } : {}),
  }
}

/** Which catalogued calls an action may pick (lists and details read `useReadCalls`): changes for a call, file reads for a download. */
export const mutationCalls = (calls: readonly CatalogueCall[]) => calls.filter((c) => c.effect === 'mutation' && c.path.startsWith('api/'))
export const fileCalls = (calls: readonly CatalogueCall[]) => calls.filter((c) => c.effect === 'read' && c.answer === 'file' && c.path.startsWith('api/'))
