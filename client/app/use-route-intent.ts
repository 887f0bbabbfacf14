import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { hasPermission, routeMatch, useLoadedManifest } from '../api/manifest'

/**
 * What a link does on intent (hover, focus): prefetch the screen its route draws, that screen's
 * first page and the record its address names, for routes the user may open. A route with a
 * named check runs it first (its answer stands a few seconds, so the click reuses it) and
 * fetches the data only when it passes. The prefetch code is the renderer's, loaded on the first
 * intent: the sign-in page never carries it.
 */
export function useRouteIntent(): (path: string) => void {
  const client = useQueryClient()
  const manifest = useLoadedManifest()
  return useCallback(
    (path: string) => {
      const { pathname, search } = new URL(path, window.location.origin)
      const match = routeMatch(manifest.routes, pathname)
      if (!match || !hasPermission(manifest, match.route.permission)) return
      const { route, params } = match
      void Promise.all([import('../renderer/screen-query'), import('../widgets'), import('./route-checks')]).then(
        async ([{ prefetchScreen }, { WIDGETS }, { routeCheckQuery }]) => {
          const check = route.check ? routeCheckQuery(route.check, params, pathname, search) : null
          if (check) await client.prefetchQuery(check)
          const passed = !check || client.getQueryData<boolean>(check.queryKey) === true
          await prefetchScreen(client, route.screen, WIDGETS, { firstPage: passed, params })
        },
        () => undefined,
      )
    },
    [client, manifest],
  )
}
