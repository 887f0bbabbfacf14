import type { Author } from '../../../schemas/admin'
import type { LocalizedText } from '../../../schemas/i18n'
import type { MenuDefinition, ResolvedMenuEntry } from '../../../schemas/menu'
import type { ScreenFile, Text } from '../../../schemas/screen'
import { api, ApiError } from '../../api/client'
import { screenAdmin as studio } from '../../api/screen-admin'
import { messageIn } from '../../i18n/i18n'
import { intlLocale } from '../../ui/format'
import { shippedTables, tweaksOf, type ColumnTweaks, type ShippedTable } from './columns-model'
import { messages } from './messages'

export type { Author }

export interface Change {
  text: string
}

export interface MenuState {
  brand: string
  version: number
  menu: MenuDefinition
  author: Author | null
  updatedAt: number | null
  routes: { path: string; title: LocalizedText; permission: string | null }[]
  permissions: { code: string; name: string }[]
  brands: { key: string; name: string }[]
}

export interface HistoryEntry {
  version: number
  author: Author | null
  createdAt: number | null
  kind: 'edit' | 'rollback' | 'shipped'
  restoredFrom: number | null
  changes: Change[]
}

export interface Saved<T> {
  version: number
  changes: Change[]
  value: T
}

/** What a 409 carries: who saved meanwhile, their changes, and (for a menu save) both drafts combined. */
export interface Conflict<T> {
  message: string
  currentVersion: number
  current: T
  changes: Change[]
  merged: T | null
}

export interface ScreenSummary {
  id: string
  title: Text
  path: string | null
  version: number
  /** A shipped screen (one the column editor can tweak), not one made in the studio. */
  shipped: boolean
  tables: string[]
}

/** What the column editor works on: the screen's latest version, its shipped tables, and the columns' tweaks between the two. */
export interface ScreenState {
  id: string
  title: Text
  version: number
  author: Author | null
  updatedAt: number | null
  screen: ScreenFile
  shipped: ScreenFile
  overlay: ColumnTweaks
  tables: ShippedTable[]
}

/** A refused save because someone saved first, read from the 409 body; other failures are rethrown. */
export function conflictOf<T>(err: unknown, pick: (body: Record<string, unknown>) => T): Conflict<T> | null {
  if (!(err instanceof ApiError) || err.status !== 409 || !err.body || typeof err.body !== 'object') return null
  const body = err.body as { message: string; current: { version: number }; changes: Change[]; merged?: T | null }
  return { message: body.message, currentVersion: body.current.version, current: pick(body.current as Record<string, unknown>), changes: body.changes, merged: body.merged ?? null }
}

const q = (brand: string) => ({ params: { brand } })

export const menuAdmin = {
  state: (brand: string) => api.get<MenuState>('/bff/admin/menu', q(brand)),
  save: (brand: string, version: number, menu: MenuDefinition) => api.put<{ version: number; menu: MenuDefinition; changes: Change[] }>('/bff/admin/menu', { version, menu }, q(brand)),
  history: (brand: string) => api.get<HistoryEntry[]>('/bff/admin/menu/history', q(brand)),
  diff: (brand: string, from: number, to: number) => api.get<{ changes: Change[] }>('/bff/admin/menu/diff', { params: { brand, from, to } }),
  preview: (brand: string, menu: MenuDefinition, permissions: string[], production: boolean) =>
    api.post<{ menu: ResolvedMenuEntry[]; changes: Change[] }>('/bff/admin/menu/preview', { menu, permissions, production }, q(brand)),
  rollback: (brand: string, version: number, expectedVersion: number) =>
    api.post<{ version: number; menu: MenuDefinition; changes: Change[] }>('/bff/admin/menu/rollback', { version, expectedVersion }, q(brand)),
}

/**
 * The column editor on the screen studio's contract (client/api/screen-admin.ts): an edit of the
 * columns is a new version of the whole shipped screen, saved then published to everyone at once.
 */
export const screenAdmin = {
  list: async (): Promise<ScreenSummary[]> => (await studio.list()).map((s) => ({ id: s.id, title: s.title, path: s.path, version: s.version, shipped: s.shipped, tables: s.tables })),
  state: async (id: string): Promise<ScreenState> => {
    const [latest, factory] = await Promise.all([studio.state(id), studio.state(id, 0)])
    const tables = shippedTables(factory.screen)
    return { id, title: latest.screen.title, version: latest.version, author: latest.author, updatedAt: latest.updatedAt, screen: latest.screen, shipped: factory.screen, overlay: tweaksOf(tables, latest.screen), tables }
  },
  /** Saves `screen` as the next version after `expectedVersion` and publishes it to everyone. */
  saveAndPublish: async (id: string, expectedVersion: number, screen: ScreenFile) => {
    const saved = await studio.save(id, screen, expectedVersion)
    await studio.publish(id, saved.version)
    return saved
  },
  /** A version's screen, for a rollback saved as a new version with its content. */
  at: async (id: string, version: number) => (await studio.state(id, version)).screen,
  history: async (id: string): Promise<HistoryEntry[]> => (await studio.history(id)).versions.map((v) => ({ ...v, restoredFrom: null })),
}

/** Short date and time in the current language: 21/11/26, 10:32 (ES), 11/21/26, 10:32 AM (EN). */
export const formatWhen = (ms: number | null) =>
  ms === null ? '—' : new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms))

/** "Versión 3 · Ana Admin · 21/11/26, 10:32", or the shipped one (current language). */
export function describeVersion(version: number, author: Author | null, at: number | null): string {
  if (version === 0) return messageIn(messages, 'version.factoryUnchanged')
  return messageIn(messages, 'version.line', { n: version, author: author?.name ?? '—', when: formatWhen(at) })
}

/** What a rollback restored, to end a sentence: "versión 3", "versión de fábrica". */
export const restoredVersion = (version: number) =>
  version === 0 ? messageIn(messages, 'version.from.factory') : messageIn(messages, 'version.from.n', { n: version })
