import type { Author } from '../../schemas/admin'
import type { ScreenFile, Text } from '../../schemas/screen'
import { api } from './client'

/**
 * The screen studio's server contract (`/bff/admin/screens…`, GESTORACCESS): drafts, versions,
 * staged publishing, history, diff, rollback, preview as a user. One wrapper for every admin
 * tool that edits screens (the studio, and the menu manager's column editing).
 */

/** Who sees a published version: brand keys and user group ids; none means everyone. */
export interface ScreenAudience {
  brands?: string[]
  groups?: number[]
}

export interface StudioScreenSummary {
  id: string
  title: Text
  path: string | null
  /** `draft` (never published), `published`, `withdrawn`, `fallback` (a failing version was set aside). */
  status: string
  version: number
  publishedVersion: number | null
  audience: ScreenAudience | null
  shipped: boolean
}

export interface StudioScreenState {
  id: string
  screen: ScreenFile
  version: number
  audience: ScreenAudience | null
  status: string
  publishedVersion?: number | null
  shipped?: boolean
}

export interface StudioHistoryEntry {
  version: number
  kind: string
  author: Author | null
  createdAt: number | null
  audience?: ScreenAudience | null
  note?: string | null
}

export interface StudioChange {
  path?: string
  text: string
}

export interface CatalogueCall {
  id: string
  method: string
  path: string
  summary: string
  effect: 'read' | 'mutation'
  permission?: string
  list?: { mode: string; sortable: string[]; filterable: string[]; summable?: string[] }
  query?: Record<string, unknown>
  pathParams?: Record<string, unknown>
}

export interface PreviewAnswer {
  screen: ScreenFile
  /** Whether the chosen user may open the screen's route at all. */
  allowed: boolean
  as: { id: number; name: string; permissions: string[]; groups: number[] } | null
}

const at = (id: string) => `/bff/admin/screens/${encodeURIComponent(id)}`

export const screenAdmin = {
  list: () => api.get<StudioScreenSummary[]>('/bff/admin/screens'),
  state: (id: string) => api.get<StudioScreenState>(at(id)),
  create: (screen: unknown) => api.post<StudioScreenState>('/bff/admin/screens', { screen }),
  save: (id: string, screen: unknown, expectedVersion?: number) => api.put<StudioScreenState>(at(id), { screen, ...(expectedVersion === undefined ? {} : { expectedVersion }) }),
  publish: (id: string, version?: number, audience?: ScreenAudience) =>
    api.post<StudioScreenState>(`${at(id)}/publish`, { ...(version === undefined ? {} : { version }), ...(audience ? { audience } : {}) }),
  history: (id: string) => api.get<StudioHistoryEntry[]>(`${at(id)}/history`),
  diff: (id: string, from: number, to: number) => api.get<{ changes: StudioChange[] }>(`${at(id)}/diff`, { params: { from, to } }),
  rollback: (id: string, version?: number) => api.post<StudioScreenState>(`${at(id)}/rollback`, version === undefined ? {} : { version }),
  preview: (screen: unknown, userId: number | null) => api.post<PreviewAnswer>('/bff/admin/screens/preview', { screen, ...(userId === null ? {} : { userId }) }),
  catalogue: () => api.get<CatalogueCall[]>('/bff/admin/catalogue'),
}
