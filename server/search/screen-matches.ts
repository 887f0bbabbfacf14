import type { RouteDef } from '../../schemas/manifest'
import type { Language } from '../../schemas/i18n'
import type { SearchResult } from '../../schemas/search'
import { foldText } from './query-shape'

/** Screens shown per query: the palette is for jumping, not browsing. */
export const SCREEN_LIMIT = 6

/**
 * The routes a user can open from the palette: of the routes the manifest gives this user (brand,
 * environment and menu already applied), those whose permission they hold, that need a session
 * and no parameter (a record's route is reached through its record).
 */
export function openableRoutes(routes: readonly RouteDef[], permissions: ReadonlySet<string>): RouteDef[] {
  return routes.filter((r) => !r.public && !r.path.includes('{') && (!r.permission || permissions.has(r.permission)))
}

/**
 * Screens whose title (either language) or path holds every word of the query; titles that start
 * with the query first, then shorter titles.
 */
export function screenMatches(routes: readonly RouteDef[], query: string, lang: Language): SearchResult[] {
  const words = foldText(query).split(/\s+/).filter(Boolean)
  if (words.length === 0) return []
  const whole = words.join(' ')
  const scored: { route: RouteDef; title: string; score: number }[] = []
  for (const route of routes) {
    const title = (lang === 'en' ? route.title.en : undefined) ?? route.title.es
    const haystack = foldText(`${route.title.es} ${route.title.en ?? ''} ${route.path.replace(/[/-]/g, ' ')}`)
    if (!words.every((w) => haystack.includes(w))) continue
    const folded = foldText(title)
    const score = folded.startsWith(whole) ? 0 : folded.includes(whole) ? 1 : 2
    scored.push({ route, title, score })
  }
  scored.sort((a, b) => a.score - b.score || a.title.length - b.title.length || a.title.localeCompare(b.title))
  return scored.slice(0, SCREEN_LIMIT).map(({ route, title }) => ({ kind: 'screen', group: 'screens', label: title, detail: route.path, path: route.path }))
}
