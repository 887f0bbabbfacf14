import type { View } from '../../schemas/view'

/** The one permission that publishes a view to the whole brand, and manages brand views. */
export const PUBLISH_PERMISSION = 'GESTORACCESS'

/** A signed-in user as the view rule sees them: on this host's brand, with their groups. */
export interface ViewReader {
  id: number
  brand: string
  groups: readonly number[]
  /** Holds PUBLISH_PERMISSION. */
  publisher: boolean
}

/**
 * Who sees a view: only people of its brand; there, its owner always, members of its group
 * when shared with one, everyone when published to the brand.
 */
export function canSee(view: View, reader: ViewReader): boolean {
  if (view.brand !== reader.brand) return false
  if (view.owner.id === reader.id) return true
  if (view.visibility === 'brand') return true
  return view.visibility === 'group' && view.groupId !== undefined && reader.groups.includes(view.groupId)
}

/** Who updates or withdraws a view they see: its owner, and for a brand view any publisher. */
export function canEdit(view: View, reader: ViewReader): boolean {
  if (!canSee(view, reader)) return false
  return view.owner.id === reader.id || (view.visibility === 'brand' && reader.publisher)
}

/** Shared views (group, brand) are audited; private ones are the owner's own business. */
export const isShared = (view: Pick<View, 'visibility'>) => view.visibility !== 'private'
