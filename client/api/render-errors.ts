import { send } from './client'

/** A failed dynamic import means this page's chunks were replaced by a newer build (not the screen's fault). */
export function isStaleChunkError(err: unknown): boolean {
  const message = String((err as Error)?.message ?? err)
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported/i.test(message)
}

/** The version the BFF served each screen object as (its `x-screen-version` header). */
const servedVersions = new WeakMap<object, number>()

/** Fetches a screen's JSON, remembering the version it was served as. */
export async function fetchScreen<T extends object>(id: string): Promise<T> {
  const res = await send('GET', `/bff/screens/${id}`)
  const screen = (await res.json()) as T
  const header = res.headers.get('x-screen-version')
  if (header !== null && /^\d+$/.test(header)) servedVersions.set(screen, Number(header))
  return screen
}

/**
 * Tells the BFF this browser could not render a screen it served: enough users failing on one
 * published version and everyone falls back to the last good one. Best effort, never thrown.
 */
export function reportRenderError(id: string, screen: object, error: unknown): void {
  const version = servedVersions.get(screen)
  if (version === undefined || isStaleChunkError(error)) return
  const message = String((error as Error)?.message ?? error).slice(0, 500)
  send('POST', `/bff/screens/${encodeURIComponent(id)}/render-error`, { body: { version, message }, quietUnauthenticated: true }).catch(() => undefined)
}
