import type { RouteDef } from '../../schemas/manifest'

/**
 * Where a screen is drawn, read from the manifest rather than written again in client code:
 * its first route's path with the parameters filled in (encoded). Undefined when this host and
 * user have no route for it.
 */
export function screenPath(routes: RouteDef[], screen: string, params: Record<string, string> = {}): string | undefined {
  const route = routes.find((r) => r.screen === screen)
  return route?.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''))
}
