import { messageIn, type Messages } from '../../i18n/i18n'
import type { ScreenAudience, ScreenRelease } from '../../api/screen-admin'
import { messages } from './messages'

type Key = typeof messages extends Messages<infer K> ? K : never

/** A status as a word and a badge colour. */
export function statusBadge(status: string): { label: string; severity: 'success' | 'info' | 'warning' | 'danger' | 'secondary' } {
  const known: Record<string, ['success' | 'info' | 'warning' | 'danger' | 'secondary', Key]> = {
    draft: ['warning', 'status.draft'],
    published: ['success', 'status.published'],
    shipped: ['info', 'status.shipped'],
    staged: ['info', 'status.staged'],
    withdrawn: ['secondary', 'status.withdrawn'],
    fallback: ['danger', 'status.fallback'],
  }
  const [severity, key] = known[status] ?? ['secondary', 'status.draft']
  return { label: known[status] ? messageIn(messages, key) : status, severity }
}

/** Who sees which version, in words: «Todos: versión 2 · Marcas grupo: versión 3». */
export function releaseText(release: ScreenRelease, groupName: (id: number) => string = String): string {
  const parts: string[] = []
  const version = (n: number) => (n === 0 ? messageIn(messages, 'status.shipped') : messageIn(messages, 'editor.version', { n }))
  if (release.everyone !== null) parts.push(`${messageIn(messages, 'audience.everyone')}: ${version(release.everyone)}`)
  if (release.staged) parts.push(`${audienceText(release.staged, groupName)}: ${version(release.staged.version)}`)
  return parts.length ? parts.join(' · ') : messageIn(messages, 'audience.nobody')
}

/** An audience in words: «Marcas: grupo · Grupos: Comerciales», or everyone. */
export function audienceText(audience: ScreenAudience | null | undefined, groupName: (id: number) => string = String): string {
  const parts: string[] = []
  if (audience?.brands?.length) parts.push(messageIn(messages, 'audience.brands', { list: audience.brands.join(', ') }))
  if (audience?.groups?.length) parts.push(messageIn(messages, 'audience.groups', { list: audience.groups.map(groupName).join(', ') }))
  return parts.length ? parts.join(' · ') : messageIn(messages, 'audience.everyone')
}
