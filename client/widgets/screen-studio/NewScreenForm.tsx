import { useMutation, useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import { Message } from 'primereact/message'
import { RadioButton } from 'primereact/radiobutton'
import { useState } from 'react'
import type { ScreenFile } from '../../../schemas/screen'
import { screenAdmin } from '../../api/screen-admin'
import { errorText } from '../../api/errors'
import { notifySuccess } from '../../api/toast'
import { localized, useMessages } from '../../i18n/i18n'
import { describedBy } from '../../ui/described-by'
import { FieldShell } from '../../ui/FieldShell'
import { listableCall, sampleColumns } from './call-sample'
import { screenOfDesign } from './list-design'
import { messages } from './messages'
import { useReadCalls } from './studio-data'

const ID = /^[a-z0-9][a-z0-9-]{0,79}$/

/** The first step of a new screen: its identifier, title and route, and either a catalogued call (a list) or a screen to copy. */
export function NewScreenForm({ copyOf, onCreated, onCancel }: { copyOf: string | null; onCreated: (id: string) => void; onCancel: () => void }) {
  const t = useMessages(messages)
  const screens = useQuery({ queryKey: ['studio', 'screens'], queryFn: screenAdmin.list, staleTime: 0, meta: { errorArea: t('area'), errorMessage: t('list.error') } })
  const calls = useReadCalls()
  const [from, setFrom] = useState<'nothing' | 'copy'>(copyOf ? 'copy' : 'nothing')
  const [source, setSource] = useState<string | null>(copyOf)
  const [id, setId] = useState('')
  const [es, setEs] = useState('')
  const [en, setEn] = useState('')
  const [path, setPath] = useState('/')
  const [callId, setCallId] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  const create = useMutation({
    mutationFn: async (): Promise<string> => {
      const title = en.trim() ? { es: es.trim(), en: en.trim() } : { es: es.trim() }
      let screen: ScreenFile
      if (from === 'copy') {
        const original = (await screenAdmin.state(source!)).screen
        const permission = original.routes?.[0]?.permission
        screen = { ...structuredClone(original), id, title, routes: [{ path, ...(permission ? { permission } : {}) }] }
        delete (screen as { menu?: unknown }).menu
        if (screen.root.type === 'page') screen.root = { ...screen.root, title }
      } else {
        const call = calls.data!.find((c) => c.id === callId)!
        const sample = await sampleColumns(call)
        const design = { endpoint: call.path, paged: sample.paged, columns: sample.columns, dataKey: sample.dataKey, rowLink: null }
        screen = screenOfDesign({ id, title, routes: [{ path, ...(call.permission ? { permission: call.permission } : {}) }] }, design)
      }
      return (await screenAdmin.create(screen)).id ?? id
    },
    onSuccess: (created) => {
      notifySuccess(t('area'), t('editor.created', { n: 1 }))
      onCreated(created)
    },
    onError: (err) => setProblem(errorText(err)),
  })

  const submit = () => {
    setProblem(null)
    if (!id || !es.trim() || !path) return setProblem(t('new.required'))
    if (!ID.test(id)) return setProblem(t('new.idBad'))
    if (!path.startsWith('/')) return setProblem(t('new.pathBad'))
    if (screens.data?.some((s) => s.id === id)) return setProblem(t('new.idTaken', { id }))
    if (from === 'nothing' && !callId) return setProblem(t('design.callPick'))
    if (from === 'copy' && !source) return setProblem(t('new.copyOf'))
    create.mutate()
  }

  const callOptions = (calls.data ?? []).filter(listableCall).map((c) => ({ value: c.id, label: `${c.summary} — ${c.path}` }))
  return (
    <section className="screen-studio card" aria-labelledby="studio-new-title">
      <div className="screen-studio__toolbar">
        <Button icon="pi pi-arrow-left" text label={t('back')} onClick={onCancel} />
        <h2 id="studio-new-title" className="screen-studio__heading">
          {t('new.title')}
        </h2>
      </div>
      <form
        className="screen-studio__form"
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
        noValidate
      >
        <fieldset className="screen-studio__choice">
          <legend>{t('new.from')}</legend>
          <label>
            <RadioButton inputId="studio-from-nothing" checked={from === 'nothing'} onChange={() => setFrom('nothing')} /> {t('new.fromNothing')}
          </label>
          <label>
            <RadioButton inputId="studio-from-copy" checked={from === 'copy'} onChange={() => setFrom('copy')} /> {t('new.fromCopy')}
          </label>
        </fieldset>
        {from === 'copy' ? (
          <FieldShell id="studio-copy" label={t('new.copyOf')}>
            <Dropdown inputId="studio-copy" value={source} onChange={(e) => setSource(e.value as string)} options={(screens.data ?? []).map((s) => ({ value: s.id, label: `${localized(s.title)} (${s.id})` }))} filter placeholder={t('new.copyOf')} />
          </FieldShell>
        ) : (
          <FieldShell id="studio-call" label={t('design.call')} hint={t('design.callHelp')}>
            <Dropdown inputId="studio-call" value={callId} onChange={(e) => setCallId(e.value as string)} options={callOptions} filter loading={calls.isPending} placeholder={t('design.callPick')} />
          </FieldShell>
        )}
        <div className="screen-studio__grid">
          <FieldShell id="studio-id" label={t('new.id')} hint={t('new.idHelp')} required>
            <InputText id="studio-id" aria-describedby={describedBy('studio-id', true, null)} value={id} onChange={(e) => setId(e.target.value.trim())} autoComplete="off" />
          </FieldShell>
          <FieldShell id="studio-path" label={t('new.path')} hint={t('new.pathHelp')} required>
            <InputText id="studio-path" aria-describedby={describedBy('studio-path', true, null)} value={path} onChange={(e) => setPath(e.target.value.trim())} autoComplete="off" />
          </FieldShell>
          <FieldShell id="studio-title-es" label={t('new.name')} required>
            <InputText id="studio-title-es" value={es} onChange={(e) => setEs(e.target.value)} />
          </FieldShell>
          <FieldShell id="studio-title-en" label={t('new.nameEn')}>
            <InputText id="studio-title-en" value={en} onChange={(e) => setEn(e.target.value)} />
          </FieldShell>
        </div>
        {problem && <Message severity="error" text={problem} className="screen-studio__message" />}
        <div className="screen-studio__actions">
          <Button type="submit" label={t('new.create')} icon="pi pi-check" loading={create.isPending} />
          <Button type="button" label={t('cancel')} text onClick={onCancel} />
        </div>
      </form>
    </section>
  )
}
