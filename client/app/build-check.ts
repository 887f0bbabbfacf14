import { api } from '../api/client'

/** Spec §9: the build id is checked every 3,600,000 ms; a reload is not repeated within 10 s. */
export const BUILD_CHECK_INTERVAL_MS = 3_600_000
export const RELOAD_GUARD_TTL_MS = 10_000
const GUARD_KEY = 'portal.reload-guard'

let outdated = false

export function isOutdated(): boolean {
  return outdated
}

/** Polls the BFF's build id; once it differs from the one this page was built with, the next navigation reloads. */
export function startBuildCheck(loadedBuildId: string, intervalMs = BUILD_CHECK_INTERVAL_MS): () => void {
  const timer = setInterval(async () => {
    try {
      const { buildId } = await api.get<{ buildId: string }>('/bff/build')
      if (buildId && buildId !== loadedBuildId) outdated = true
    } catch {
      // offline or server busy: try again next time
    }
  }, intervalMs)
  return () => clearInterval(timer)
}

/** A full reload to `path`, unless one happened less than 10 s ago (no reload loops). Returns whether it reloads. */
export function reloadTo(path: string, now = Date.now()): boolean {
  try {
    const last = Number(sessionStorage.getItem(GUARD_KEY) ?? 0)
    if (now - last < RELOAD_GUARD_TTL_MS) return false
    sessionStorage.setItem(GUARD_KEY, String(now))
  } catch {
    // without storage there is no guard; reload anyway
  }
  window.location.assign(path)
  return true
}
