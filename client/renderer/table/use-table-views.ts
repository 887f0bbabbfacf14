import { useState } from 'react'
import type { TableNode } from '../../../schemas/screen'
import type { ViewForUser, ViewVisibility } from '../../../schemas/view'
import { reportError } from '../../api/errors'
import { useLoadedManifest } from '../../api/manifest'
import { usePreference } from '../../api/preferences'
import { notifySuccess, showToast } from '../../api/toast'
import { useViews } from '../../api/views'
import { useI18n, useMessages } from '../../i18n/i18n'
import { messages } from './messages'
import type { SavedFilter, TableState } from './table-state'
import { contentOf, droppedLabels, fitView, legacyContent, legacyName, type FittedView } from './views'

/** How long the notice of a view's dropped columns stays: long enough to read a list of names. */
export const DROPPED_NOTICE_MS = 8_000

/** A line of the views menu: a view of the store, or an old saved filter still kept as a preference. */
export interface ViewEntry {
  key: string
  name: string
  view: ViewForUser | null
  /** The user may overwrite it with what the table shows, or withdraw it. */
  editable: boolean
}

export interface SaveSharing {
  visibility: ViewVisibility
  groupId?: number
}

/** The views menu of one table, headless: its sections, and applying, saving, updating and withdrawing. */
export interface TableViews {
  /** The store's answer: loading, failed (say so, offer a retry), or here. */
  status: 'loading' | 'error' | 'ready'
  retry(): void
  /** The user's own views (and their old saved filters), shared with them by a group, published to the brand. */
  mine: ViewEntry[]
  shared: ViewEntry[]
  published: ViewEntry[]
  groups: { id: number; name: string }[]
  canPublish: boolean
  /** The entry last applied here. */
  active: string | null
  apply(entry: ViewEntry): void
  /** Saves what the table shows as a new view (moving the old saved filters into the store first); true when saved. */
  save(name: string, sharing: SaveSharing): Promise<boolean>
  /** Overwrites the view with what the table shows now. */
  update(entry: ViewEntry): Promise<void>
  withdraw(entry: ViewEntry): Promise<void>
}

interface TablePrefs {
  columns?: string[]
  filters?: SavedFilter[]
}

/**
 * The views of a table (BFF store), with the user's old saved filters (a preference) shown among
 * their own until the first save moves them into the store. `apply` gets a view fitted to the
 * table as it is now; a view naming columns the table lost still applies, and says what it dropped.
 */
export function useTableViews(node: TableNode, screenId: string, now: { state: TableState; columns: string[]; title: string }, apply: (fitted: FittedView) => void): TableViews {
  const { l } = useI18n()
  const t = useMessages(messages)
  const me = useLoadedManifest().user?.id
  const store = useViews(screenId, node.id, !!screenId)
  const prefs = usePreference<TablePrefs>(`tabla:${screenId}:${node.id}`)
  const [active, setActive] = useState<string | null>(null)
  const answer = store.query.data
  const legacy = prefs.value?.filters ?? []
  const area = node.errorArea ? l(node.errorArea) : now.title
  const failed = (err: unknown) => reportError(node.errorArea, err, undefined, { area: now.title, message: t('views.error') })

  const entry = (view: ViewForUser): ViewEntry => ({ key: view.id, name: view.name, view, editable: view.editable })
  const views = answer?.views ?? []
  const mine = [
    ...views.filter((v) => v.owner.id === me).map(entry),
    ...legacy.map((f): ViewEntry => ({ key: `legacy:${f.name}`, name: f.name, view: null, editable: true })),
  ]
  const shared = views.filter((v) => v.owner.id !== me && v.visibility === 'group').map(entry)
  const published = views.filter((v) => v.owner.id !== me && v.visibility === 'brand').map(entry)

  const content = () => contentOf(now.state, now.columns)

  /** Old saved filters into the store as private views; the preference loses them only when every one is there. */
  const moveLegacy = async () => {
    if (legacy.length === 0) return
    const own = views.filter((v) => v.owner.id === me)
    const taken = new Set(own.map((v) => v.name.toLocaleLowerCase('es')))
    for (const saved of legacy) {
      const body = legacyContent(node, saved)
      const name = legacyName(saved, body, own, taken)
      if (name === null) continue
      await store.create({ screen: screenId, table: node.id, name, ...body, visibility: 'private' })
      taken.add(name.toLocaleLowerCase('es'))
    }
    await prefs.save({ ...prefs.value, filters: undefined })
  }

  return {
    status: store.query.isError ? 'error' : store.query.isPending ? 'loading' : 'ready',
    retry: () => void store.query.refetch(),
    mine,
    shared,
    published,
    groups: answer?.groups ?? [],
    canPublish: answer?.canPublish ?? false,
    active,
    apply: (e) => {
      const source = e.view ?? legacy.find((f) => `legacy:${f.name}` === e.key)
      if (!source) return
      const fitted = fitView(node, { filters: source.filters ?? {}, sort: source.sort ?? null, columns: e.view?.columns })
      apply(fitted)
      setActive(e.key)
      if (fitted.dropped.length > 0) showToast({ severity: 'warn', summary: area, detail: t('views.dropped', { columns: droppedLabels(node, fitted.dropped, l).join(', ') }), life: DROPPED_NOTICE_MS })
    },
    save: async (name, sharing) => {
      try {
        await moveLegacy()
        const saved = await store.create({ screen: screenId, table: node.id, name, ...content(), ...sharing })
        setActive(saved.id)
        notifySuccess(area, t('views.saved', { name: saved.name }))
        return true
      } catch (err) {
        failed(err)
        return false
      }
    },
    update: async (e) => {
      if (!e.view) return
      const v = e.view
      try {
        await store.update(v.id, { version: v.version, name: v.name, ...content(), ...(v.layout ? { layout: v.layout } : {}), visibility: v.visibility, ...(v.groupId !== undefined ? { groupId: v.groupId } : {}) })
        notifySuccess(area, t('views.updated', { name: v.name }))
      } catch (err) {
        failed(err)
        // A 409 carries the view as it is now: the list is read again to show it.
        void store.refresh()
      }
    },
    withdraw: async (e) => {
      try {
        if (e.view) await store.withdraw(e.view.id, e.view.version)
        else await prefs.save({ ...prefs.value, filters: legacy.filter((f) => `legacy:${f.name}` !== e.key) })
        if (active === e.key) setActive(null)
        notifySuccess(area, t('views.withdrawn', { name: e.name }))
      } catch (err) {
        failed(err)
        void store.refresh()
      }
    },
  }
}
