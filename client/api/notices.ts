import type { Notice } from '../../schemas/notice'
import { getLanguage } from '../i18n/i18n'
import { api } from './client'
import { showToast } from './toast'

/** How long a notice stays on screen: longer than a toast, it tells of something that happened while away. */
const NOTICE_LIFE_MS = 10_000

/**
 * Shows the signed-in user's pending notices (a decision on a held request, its expiry) once,
 * through the one toast path, and dismisses them. Called when the signed-in layout loads.
 */
export async function showPendingNotices(): Promise<void> {
  let notices: Notice[]
  try {
    notices = (await api.get<{ notices: Notice[] }>('/bff/notices', { quietUnauthenticated: true })).notices
  } catch {
    return // no notices now: they wait for the next load
  }
  if (notices.length === 0) return
  const lang = getLanguage()
  for (const n of notices) showToast({ severity: n.severity, summary: n.title[lang], detail: n.text[lang], life: NOTICE_LIFE_MS })
  await api.post('/bff/notices/dismiss', { ids: notices.map((n) => n.id) }, { quietUnauthenticated: true }).catch(() => undefined)
}
