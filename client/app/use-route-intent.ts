import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { hasPermission, routeAt, useLoadedManifest } from '../api/manifest'

/**
 * What a link does on intent (hover, focus): prefetch the screen its route draws and that
 * screen's first page, for routes the user may open. Routes with a named check wait for it,
 * so only their screen is fetched ahead. The prefetch code is the renderer's, loaded on the
 * first intent: the sign-in page never carries it.
 */
export function useRouteIntent(): (path: string) => void {
  const client = useQueryClient()
  const manifest = useLoadedManifest()
  return useCallback(
    (path: string) => {
      const route = routeAt(manifest.routes, path)
      if (!route || !hasPermission(manifest, route.permission)) return
      void Promise.all([import('../renderer/screen-query'), import('../widgets')]).then(
        ([{ prefetchScreen }, { WIDGETS }]) => prefetchScreen(client, route.screen, WIDGETS, { firstPage: !route.check }),
        () => undefined,
      )
    },
    [client, manifest],
  )
}
