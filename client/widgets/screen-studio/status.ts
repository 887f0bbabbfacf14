import { messageIn, type Messages } from '../../i18n/i18n'
import type { ScreenAudience } from '../../api/screen-admin'
import { messages } from './messages'

type Key = typeof messages extends Messages<infer K> ? K : never

/** A status as a word and a badge colour. */
export function statusBadge(status: string): { label: string; severity: 'success' | 'info' | 'warning' | 'danger' | 'secondary' } {
  const known: Record<string, ['success' | 'info' | 'warning' | 'danger' | 'secondary', Key]> = {
    draft: ['warning', 'status.draft'],
    published: ['success', 'status.published'],
    shipped: ['info', 'status.shipped'],
    withdrawn: ['secondary', 'status.withdrawn'],
    fallback: ['danger', 'status.fallback'],
  }
  const [severity, key] = known[status] ?? ['secondary', 'status.draft']
  return { label: known[status] ? messageIn(messages, key) : status, severity }
}

/** Who a published version reaches, in words. */
export function audienceText(audience: ScreenAudience | null | undefined, published: boolean, groupName: (id: number) => string = String): string {
  if (!published) return messageIn(messages, 'audience.nobody')
  const parts: string[] = []
  if (audience?.brands?.length) parts.push(messageIn(messages, 'audience.brands', { list: audience.brands.join(', ') }))
  if (audience?.groups?.length) parts.push(messageIn(messages, 'audience.groups', { list: audience.groups.map(groupName).join(', ') }))
  return parts.length ? parts.join(' · ') : messageIn(messages, 'audience.everyone')
}
