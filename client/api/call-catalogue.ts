import type { Endpoint } from '../../schemas/catalogue/endpoint'
import type { CallIndex } from '../../schemas/catalogue/match'
import { localized } from '../i18n/i18n'
import type { ApiError } from './client'

/**
 * The endpoint catalogue as the client reads it: only for the area and message of a failed
 * call (spec §8). Its JSON is a chunk of its own, fetched the first time a toast needs it (a
 * failure, or a screen action's success titled like its failures), so the sign-in and dashboard
 * entry bundles never carry it.
 */

/** A call's failure toast, in the current language: its title (area) and its default message. */
export interface ErrorSpec {
  area: string
  message?: string
}

let index: CallIndex | null = null
let loading: Promise<CallIndex | null> | null = null

/** The catalogue's call index, built once. Null when its chunk cannot be fetched (the toast then falls back; a later failure tries again). */
export function loadCallIndex(): Promise<CallIndex | null> {
  loading ??= Promise.all([import('../../schemas/catalogue/index'), import('../../schemas/catalogue/match')]).then(
    ([{ SHIPPED_CATALOGUE }, { CallIndex }]) => {
      // The BFF checked these files against the schema at start; the client only reads them.
      const calls = Object.values(SHIPPED_CATALOGUE).flatMap((file) => (file as { calls: Endpoint[] }).calls)
      index = new CallIndex(calls)
      return index
    },
    () => {
      loading = null
      return null
    },
  )
  return loading
}

/** Only upstream calls are catalogued; the BFF's own `/bff/*` paths never are. */
const CATALOGUED = /^\/?api\//

const specIn = (catalogue: CallIndex, method: string, path: string): ErrorSpec | null => {
  const error = catalogue.find(method, path)?.call.error
  if (!error) return null
  return error.message === undefined ? { area: localized(error.area) } : { area: localized(error.area), message: localized(error.message) }
}

/** The area and message the catalogue gives a failure of this call, or null (a `/bff/*` path, an unknown call). */
export async function errorSpecOf(err: ApiError): Promise<ErrorSpec | null> {
  return callErrorSpec(err.method, err.path)
}

/** The same for a call named by method and path (a success toast titled like the call's failures). */
export async function callErrorSpec(method: string, path: string): Promise<ErrorSpec | null> {
  if (!CATALOGUED.test(path)) return null
  const catalogue = await loadCallIndex()
  return catalogue ? specIn(catalogue, method, path) : null
}

/** What is known without waiting: the spec if the catalogue is loaded already, else undefined. */
export function loadedErrorSpec(method: string, path: string): ErrorSpec | null | undefined {
  if (!CATALOGUED.test(path)) return null
  return index ? specIn(index, method, path) : undefined
}
