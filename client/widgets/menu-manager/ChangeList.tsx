import { EmptyState } from '../../ui/states'
import type { Change } from './admin-api'

/** Readable changes (sentences from the server), or a note when there are none. */
export function ChangeList({ changes, empty }: { changes: Change[]; empty: string }) {
  if (changes.length === 0) return <EmptyState className="change-list__empty">{empty}</EmptyState>
  return (
    <ul className="change-list">
      {changes.map((c, i) => (
        <li key={i}>{c.text}</li>
      ))}
    </ul>
  )
}
