import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Message } from 'primereact/message'
import { TabPanel, TabView } from 'primereact/tabview'
import { Tag } from 'primereact/tag'
import { useState } from 'react'
import type { ScreenFile } from '../../../schemas/screen'
import { ApiError } from '../../api/client'
import { errorText } from '../../api/errors'
import { screenAdmin } from '../../api/screen-admin'
import { notifySuccess } from '../../api/toast'
import { localized, useMessages } from '../../i18n/i18n'
import { ErrorState, LoadingState } from '../../ui/states'
import { HistoryPanel } from './HistoryPanel'
import { JsonEditor } from './JsonEditor'
import { designOfScreen } from './list-design'
import { ListDesigner } from './ListDesigner'
import { messages } from './messages'
import { PreviewPane } from './PreviewPane'
import { PublishPanel } from './PublishPanel'
import { RouteMenuEditor } from './RouteMenuEditor'
import { missingEnglish, screenTexts } from './screen-texts'
import { statusBadge } from './status'
import { messages as structureMessages } from './structure/messages'
import { StructureEditor } from './structure/StructureEditor'
import { TextsEditor } from './TextsEditor'

/** The editor's tabs, in order: the index of a tab is its place here. */
const TABS = ['design', 'structure', 'texts', 'json', 'preview', 'publish', 'history'] as const
const tabIndex = (name: (typeof TABS)[number]) => TABS.indexOf(name)

/**
 * One screen in the studio: its design (structured, for list screens), its structure (any node,
 * edited one at a time), texts side by side, raw
 * JSON, live preview as any user, publishing and history. Edits stay in the browser until saved
 * as a draft; a failed save keeps them, a save over a newer version says so and keeps them too.
 */
export function ScreenEditor({ id, onBack }: { id: string; onBack: () => void }) {
  const t = useMessages(messages)
  const ts = useMessages(structureMessages)
  const client = useQueryClient()
  const state = useQuery({ queryKey: ['studio', 'screen', id], queryFn: () => screenAdmin.state(id), staleTime: 0, meta: { errorArea: t('area'), errorMessage: t('editor.error') } })
  const [draft, setDraft] = useState<ScreenFile | null>(null)
  const [tab, setTab] = useState(0)
  // The node chosen in the structure tab stays chosen while the admin visits the other tabs.
  const [node, setNode] = useState('/root')
  const [problem, setProblem] = useState<string | null>(null)
  const [conflict, setConflict] = useState<number | null>(null)

  const save = useMutation({
    mutationFn: (screen: ScreenFile) => screenAdmin.save(id, screen, state.data?.version),
    onSuccess: (saved) => {
      setDraft(null)
      setProblem(null)
      setConflict(null)
      void client.invalidateQueries({ queryKey: ['studio'] })
      notifySuccess(t('area'), t('editor.saved', { n: saved.version }))
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) {
        const body = err.body as { current?: { version?: number } } | null
        setConflict(body?.current?.version ?? (state.data?.version ?? 0) + 1)
        return
      }
      setProblem(t('editor.invalid', { error: errorText(err) }))
    },
  })

  if (state.isPending) return <LoadingState lines={6} className="screen-studio card" />
  if (state.isError) return <ErrorState action={<Button label={t('editor.reload')} text size="small" onClick={() => void state.refetch()} />}>{t('editor.error')}</ErrorState>

  const current = state.data
  const screen = draft ?? current.screen
  const dirty = draft !== null
  const missing = missingEnglish(screenTexts(screen)).length
  const badge = statusBadge(current.status)
  const change = (next: ScreenFile) => setDraft(next)
  const reload = () => {
    setConflict(null)
    void state.refetch().then(() => setDraft(null))
  }

  return (
    <section className="screen-studio card" aria-labelledby="studio-editor-title">
      <div className="screen-studio__toolbar">
        <Button icon="pi pi-arrow-left" text label={t('back')} onClick={onBack} />
        <h2 id="studio-editor-title" className="screen-studio__heading">
          {localized(screen.title)} <code translate="no">{id}</code>
        </h2>
        <Tag value={badge.label} severity={badge.severity} />
        <span className="screen-studio__version">{t('editor.version', { n: current.version })}</span>
        {dirty && <span className="screen-studio__dirty">{t('editor.unsaved')}</span>}
        <Button label={t('editor.saveDraft')} icon="pi pi-save" disabled={!dirty} loading={save.isPending} onClick={() => save.mutate(screen)} />
      </div>
      {conflict !== null && (
        <Message severity="warn" className="screen-studio__message" content={<span>{t('editor.conflict', { n: conflict })} <Button label={t('editor.reload')} text size="small" onClick={reload} /></span>} />
      )}
      {problem && <Message severity="error" text={problem} className="screen-studio__message" />}
      <TabView activeIndex={tab} onTabChange={(e) => setTab(e.index)} className="screen-studio__tabs">
        <TabPanel header={t('tab.design')} leftIcon="pi pi-table">
          <div className="screen-studio__design">
            <RouteMenuEditor screen={screen} onChange={change} />
            {designOfScreen(screen) ? <ListDesigner screen={screen} onChange={change} /> : <Message severity="info" text={t('design.notList')} className="screen-studio__message" />}
          </div>
        </TabPanel>
        <TabPanel header={ts('tab')} leftIcon="pi pi-sitemap">
          <StructureEditor screen={screen} selected={node} onSelect={setNode} onChange={change} />
        </TabPanel>
        <TabPanel header={missing ? `${t('tab.texts')} (${missing})` : t('tab.texts')} leftIcon="pi pi-language">
          <TextsEditor screen={screen} onChange={change} />
        </TabPanel>
        <TabPanel header={t('tab.json')} leftIcon="pi pi-code">
          <JsonEditor screen={screen} onChange={change} />
        </TabPanel>
        <TabPanel header={t('tab.preview')} leftIcon="pi pi-eye">
          {tab === tabIndex('preview') && <PreviewPane screen={screen} />}
        </TabPanel>
        <TabPanel header={t('tab.publish')} leftIcon="pi pi-send">
          <PublishPanel id={id} state={current} dirty={dirty} />
        </TabPanel>
        <TabPanel header={t('tab.history')} leftIcon="pi pi-history">
          {tab === tabIndex('history') && <HistoryPanel id={id} />}
        </TabPanel>
      </TabView>
    </section>
  )
}
