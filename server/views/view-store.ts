import type { View } from '../../schemas/view'

export type { View }

/** How many views one person keeps: on one table, and in all of a brand. */
export interface ViewLimits {
  perTable: number
  perOwner: number
}
export const VIEW_LIMITS: Readonly<ViewLimits> = { perTable: 50, perOwner: 300 }

/** What a create or replace could not do: a name the owner already uses on that table, a limit reached, a stale version, a view gone. */
export type ViewWriteResult = 'ok' | 'name-taken' | 'table-full' | 'owner-full' | 'stale' | 'missing'

/** The name as uniqueness compares it: trimmed, case and accents as typed but letter case folded. */
export function nameKey(name: string): string {
  return name.trim().normalize('NFC').toLocaleLowerCase('es')
}

/**
 * The views of lists (schemas/view.ts), shared by every replica. Owner, brand, screen and table
 * of a view never change; its name is unique per brand + owner + screen + table (nameKey). Each
 * write is one atomic step: two saves of the same version, one wins. Adapters: SQLite, Redis.
 */
export interface ViewStore {
  /** Every view of one table in one brand, whoever may see it (the routes filter). */
  listTable(brand: string, screen: string, table: string): Promise<View[]>
  get(id: string): Promise<View | null>
  create(view: View, limits?: ViewLimits): Promise<ViewWriteResult>
  /** Replaces the view of `next.id` when its stored version is `expectedVersion`. */
  replace(next: View, expectedVersion: number): Promise<ViewWriteResult>
  /** Removes it (when `expectedVersion` is given, only at that version). */
  remove(id: string, expectedVersion?: number): Promise<ViewWriteResult>
  close(): Promise<void>
}
