import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Message } from 'primereact/message'
import { useState } from 'react'
import { TabView } from '../../ui/plain/TabView'
import { Tag } from '../../ui/plain/Tag'
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
      <TabView
        activeIndex={tab}
        onChange={setTab}
        className="screen-studio__tabs"
        tabs={[
          {
            key: 'design',
            header: t('tab.design'),
            icon: 'pi pi-table',
            content: () => (
              <div className="screen-studio__design">
                <RouteMenuEditor screen={screen} onChange={change} />
                {designOfScreen(screen) ? <ListDesigner screen={screen} onChange={change} /> : <Message severity="info" text={t('design.notList')} className="screen-studio__message" />}
              </div>
            ),
          },
          { key: 'structure', header: ts('tab'), icon: 'pi pi-sitemap', content: () => <StructureEditor screen={screen} selected={node} onSelect={setNode} onChange={change} /> },
          { key: 'texts', header: missing ? `${t('tab.texts')} (${missing})` : t('tab.texts'), icon: 'pi pi-language', content: () => <TextsEditor screen={screen} onChange={change} /> },
          { key: 'json', header: t('tab.json'), icon: 'pi pi-code', content: () => <JsonEditor screen={screen} onChange={change} /> },
          { key: 'preview', header: t('tab.preview'), icon: 'pi pi-eye', content: () => <PreviewPane screen={screen} /> },
          { key: 'publish', header: t('tab.publish'), icon: 'pi pi-send', content: () => <PublishPanel id={id} state={current} dirty={dirty} /> },
          { key: 'history', header: t('tab.history'), icon: 'pi pi-history', content: () => <HistoryPanel id={id} /> },
        ]}
      />
    </section>
  )
}
