import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { matchRoutes } from 'react-router-dom'
import type { Manifest, RouteDef } from '../../schemas/manifest'
import { api } from './client'

export const MANIFEST_KEY = ['manifest'] as const

export function fetchManifest(): Promise<Manifest> {
  // The page asks for it while the app's code downloads (index.html): this takes that answer.
  return api.get<Manifest>('/bff/manifest', { preloaded: true })
}

/** The manifest: brand, whether signed in, the user, menu and routes for this host and session. */
export function useManifest() {
  return useQuery({ queryKey: MANIFEST_KEY, queryFn: fetchManifest, staleTime: 5_000 })
}

/**
 * The view-as state of the loaded manifest, read from the cache without asking for it (a
 * screen drawn outside the app, as in tests or the studio's preview, asks nothing). Starting
 * or leaving view-as restarts the app, so it never changes under a mounted screen.
 */
export function useViewAs(): Manifest['viewAs'] {
  return useQueryClient().getQueryData<Manifest>(MANIFEST_KEY)?.viewAs
}

/** The loaded manifest; only for components rendered below the app's manifest gate. */
export function useLoadedManifest(): Manifest {
  const { data } = useManifest()
  if (!data) throw new Error('Manifest not loaded')
  return data
}

export function hasPermission(manifest: Manifest, permission: string | undefined): boolean {
  return !permission || (manifest.user?.permissions.includes(permission) ?? false)
}

export async function reloadManifest(client: QueryClient): Promise<Manifest> {
  await client.invalidateQueries({ queryKey: MANIFEST_KEY })
  return client.fetchQuery({ queryKey: MANIFEST_KEY, queryFn: fetchManifest })
}

/** Manifest paths use `{param}`; the router uses `:param`. */
export function toRouterPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1')
}

/** The manifest route drawn at `pathname`, if any, with its parameters (`{referencia}`: the contract's code). */
export function routeMatch(routes: RouteDef[], pathname: string): { route: RouteDef; params: Record<string, string | undefined> } | undefined {
  const matches = matchRoutes(
    routes.map((r) => ({ path: toRouterPath(r.path), id: r.path })),
    pathname,
  )
  const last = matches?.[matches.length - 1]
  const route = last && routes.find((r) => r.path === last.route.id)
  return route ? { route, params: last.params } : undefined
}

/** The manifest route drawn at `pathname`, if any (the breadcrumb's fallback title). */
export function routeAt(routes: RouteDef[], pathname: string): RouteDef | undefined {
  return routeMatch(routes, pathname)?.route
}
