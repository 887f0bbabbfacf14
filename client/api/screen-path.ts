import type { RouteDef } from '../../schemas/manifest'
import { useLoadedManifest } from './manifest'

/**
 * Where a screen is drawn, read from the manifest rather than written again in client code:
 * its first route's path with the parameters filled in (encoded). Undefined when this host and
 * user have no route for it.
 */
export function screenPath(routes: RouteDef[], screen: string, params: Record<string, string> = {}): string | undefined {
  const route = routes.find((r) => r.screen === screen)
  return route?.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''))
}

/**
 * `screenPath` over the loaded manifest's routes, for links between screens: a widget names the
 * screen it leads to, and the screen's file is the one place its path is written.
 */
export function useScreenPath(): (screen: string, params?: Record<string, string>) => string | undefined {
  const { routes } = useLoadedManifest()
  return (screen, params) => screenPath(routes, screen, params)
}
