import type { ResolvedMenuEntry } from '../../schemas/menu'

/** The menu entries leading to the entry whose `to` is `path` (section → group → entry), or []. */
export function menuTrail(menu: ResolvedMenuEntry[], path: string): ResolvedMenuEntry[] {
  const target = normalize(path)
  const walk = (entries: ResolvedMenuEntry[], trail: ResolvedMenuEntry[]): ResolvedMenuEntry[] | null => {
    for (const entry of entries) {
      const next = [...trail, entry]
      if (entry.to && normalize(entry.to) === target) return next
      if (entry.items) {
        const found = walk(entry.items, next)
        if (found) return found
      }
    }
    return null
  }
  return walk(menu, []) ?? []
}

function normalize(path: string): string {
  return path.toLowerCase().replace(/\/+$/, '') || '/'
}
