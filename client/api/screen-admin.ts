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

/** Who sees which version: one version for everyone (null: nobody), and one staged first for some brands or groups. */
export interface ScreenRelease {
  everyone: number | null
  staged: ({ version: number } & Required<ScreenAudience>) | null
}

/** `draft`: the latest version is not what everyone sees; `staged`: a version is out to some; `fallback`: a failing version was set aside. */
export type ScreenStatus = 'draft' | 'published' | 'staged' | 'fallback' | 'withdrawn'

export interface ScreenFallback {
  version: number | null
  at: number
  reason: string | null
}

export interface StudioScreenSummary {
  id: string
  title: Text
  path: string | null
  version: number
  status: ScreenStatus
  audience: ScreenRelease
  shipped: boolean
  fallback: ScreenFallback | null
  /** The ids of its tables. */
  tables: string[]
}

export interface StudioChange {
  path: string
  type: string
  text: string
}

export interface StudioScreenState {
  id: string
  screen: ScreenFile
  version: number
  audience: ScreenRelease
  status: ScreenStatus
  shipped: boolean
  author: Author | null
  updatedAt: number | null
  fallback: ScreenFallback | null
  /** What a release changed in the shipped file underneath this edit. */
  underneath: StudioChange[]
}

export interface StudioHistory {
  versions: { version: number; author: Author | null; createdAt: number | null; kind: 'edit' | 'shipped'; changes: StudioChange[] }[]
  releases: { step: number; action: 'publish' | 'rollback' | 'fallback'; version: number | null; audience: Required<ScreenAudience> | null; after: ScreenRelease; reason: string | null; author: Author | null; at: number }[]
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
  /** What it answers: JSON (when absent), a file (download, export, PDF) or nothing. */
  answer?: 'json' | 'file' | 'empty'
  /** What a JSON answer looks like: a name of the business shapes (schemas/business/shapes.ts). */
  shape?: string
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
  /** The latest version, or the one asked for (0: the shipped file). */
  state: (id: string, version?: number) => api.get<StudioScreenState>(at(id), version === undefined ? undefined : { params: { version } }),
  create: (screen: unknown) => api.post<{ id: string; version: number }>('/bff/admin/screens', { screen }),
  save: (id: string, screen: unknown, expectedVersion?: number) => api.put<{ id: string; version: number; changes: StudioChange[] }>(at(id), { screen, ...(expectedVersion === undefined ? {} : { expectedVersion }) }),
  publish: (id: string, version?: number, audience?: ScreenAudience) =>
    api.post<{ id: string; audience: ScreenRelease }>(`${at(id)}/publish`, { ...(version === undefined ? {} : { version }), ...(audience ? { audience } : {}) }),
  history: (id: string) => api.get<StudioHistory>(`${at(id)}/history`),
  diff: (id: string, from: number, to: number) => api.get<{ from: number; to: number; changes: StudioChange[] }>(`${at(id)}/diff`, { params: { from, to } }),
  rollback: (id: string, version?: number) => api.post<{ id: string; audience: ScreenRelease }>(`${at(id)}/rollback`, version === undefined ? {} : { version }),
  preview: (screen: unknown, userId: number | null) => api.post<PreviewAnswer>('/bff/admin/screens/preview', { screen, ...(userId === null ? {} : { userId }) }),
  catalogue: () => api.get<CatalogueCall[]>('/bff/admin/catalogue'),
}
