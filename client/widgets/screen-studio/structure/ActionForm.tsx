import { Checkbox } from 'primereact/checkbox'
import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import { MultiSelect } from 'primereact/multiselect'
import type { ActionSpec, FormNode, ScreenNode } from '../../../../schemas/screen'
import { useMessages } from '../../../i18n/i18n'
import { describedBy } from '../../../ui/described-by'
import { FieldShell } from '../../../ui/FieldShell'
import { messages as studioMessages } from '../messages'
import { useAdminChoices } from '../studio-data'
import { ACTION_KINDS, ACTION_SEVERITIES, templatesOf, withAfter, withKind, type ActionKind, type ActionScope } from './action-model'
import { CallFields } from './CallFields'
import { fileCalls, mutationCalls } from './call-model'
import { withProps } from './edit'
import { messages } from './messages'
import { FormEditor } from './FormEditor'
import { NodeJsonEditor } from './NodeJsonEditor'
import { refreshableIds } from './node-outline'
import { RouteTargetFields } from './RouteTargetFields'
import { useStructure } from './structure-context'
import { TextFields } from './TextFields'

/**
 * One action, field by field: what every action has (id, label, icon, permission, colour,
 * confirmation), then what its kind needs (a target, a catalogued call and what follows it, a
 * form, a dialog's content). `pointer` is where the action sits in the screen, for the JSON parts.
 */
export function ActionForm({ id, action, pointer, scope, onChange }: { id: string; action: ActionSpec; pointer: string; scope: ActionScope; onChange: (next: ActionSpec) => void }) {
  const t = useMessages(messages)
  const ts = useMessages(studioMessages)
  const choices = useAdminChoices()
  const { screen } = useStructure()
  const templates = templatesOf(scope)
  const set = (patch: { [K in keyof ActionSpec]?: ActionSpec[K] | undefined }) => onChange(withProps(action, patch))
  const permissions = [{ value: '', label: t('action.permissionNone') }, ...(choices.data?.permissions ?? []).map((p) => ({ value: p.code, label: `${p.code} — ${p.name}` }))]
  const refreshable = refreshableIds(screen)

  return (
    <div className="structure__action-form">
      <div className="screen-studio__grid">
        <FieldShell id={`${id}-id`} label={t('action.id')}>
          <InputText id={`${id}-id`} value={action.id} onChange={(e) => set({ id: e.target.value.trim() })} />
        </FieldShell>
        <TextFields id={`${id}-label`} label={t('action.label')} value={action.label} onChange={(label) => set({ label })} />
        <FieldShell id={`${id}-kind`} label={t('action.kind')}>
          <Dropdown inputId={`${id}-kind`} value={action.kind} options={ACTION_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))} onChange={(e) => onChange(withKind(action, e.value as ActionKind))} />
        </FieldShell>
        <FieldShell id={`${id}-icon`} label={t('action.icon')} hint={t('action.iconHelp')}>
          <span className="structure__icon-input">
            <i className={action.icon ?? 'pi pi-circle'} aria-hidden="true" />
            <InputText id={`${id}-icon`} value={action.icon ?? ''} onChange={(e) => set({ icon: e.target.value.trim() || undefined })} aria-describedby={describedBy(`${id}-icon`, true, null)} />
          </span>
        </FieldShell>
        <FieldShell id={`${id}-permission`} label={t('action.permission')}>
          <Dropdown inputId={`${id}-permission`} value={action.permission ?? ''} options={permissions} onChange={(e) => set({ permission: (e.value as string) || undefined })} placeholder={t('action.permissionNone')} filter loading={choices.isPending} />
        </FieldShell>
        <FieldShell id={`${id}-severity`} label={t('action.severity')}>
          <Dropdown inputId={`${id}-severity`} value={action.severity ?? ''} options={[{ value: '', label: t('action.severityNone') }, ...ACTION_SEVERITIES.map((s) => ({ value: s, label: ts(`severity.${s}`) }))]} onChange={(e) => set({ severity: (e.value as ActionSpec['severity'] | '') || undefined })} placeholder={t('action.severityNone')} />
        </FieldShell>
        <TextFields id={`${id}-confirm`} label={t('action.confirm')} hint={t('action.confirmHelp')} value={action.confirm} onChange={(confirm) => set({ confirm })} />
      </div>

      {action.kind === 'navigate' && (
        <>
          <RouteTargetFields id={`${id}-to`} label={t('action.to')} value={action.to} templates={templates} onChange={(to) => set({ to })} />
          <FieldShell id={`${id}-back`} label={t('action.back')} hint={t('action.backHelp')} check>
            <Checkbox inputId={`${id}-back`} checked={!!action.back} onChange={(e) => set({ back: e.checked ? true : undefined })} aria-describedby={describedBy(`${id}-back`, true, null)} />
          </FieldShell>
        </>
      )}

      {(action.kind === 'call' || action.kind === 'download') && (
        <>
          <CallFields
            id={`${id}-call`}
            label={t('action.call')}
            help={action.kind === 'call' ? t('action.callHelpCall') : t('action.callHelpDownload')}
            value={action.call}
            pick={action.kind === 'call' ? mutationCalls : fileCalls}
            templates={templates}
            onChange={(call) => set({ call })}
          />
          {action.call?.body !== undefined && <p className="screen-studio__help">{t('call.body', { body: JSON.stringify(action.call.body) })}</p>}
          <div className="screen-studio__grid">
            <TextFields id={`${id}-success`} label={t('action.success')} value={action.success} onChange={(success) => set({ success })} />
          </div>
        </>
      )}

      {action.kind === 'call' && (
        <>
          <div className="screen-studio__grid">
            <FieldShell id={`${id}-refresh`} label={t('action.refresh')} hint={t('action.refreshHelp')}>
              <MultiSelect
                inputId={`${id}-refresh`}
                value={action.after?.refresh ?? []}
                options={[...new Set([...refreshable, ...(action.after?.refresh ?? [])])]}
                onChange={(e) => onChange(withAfter(action, { refresh: e.value as string[] }))}
                placeholder={t('action.refreshNone')}
                display="chip"
              />
            </FieldShell>
          </div>
          <RouteTargetFields id={`${id}-navigate`} label={t('action.afterNavigate')} value={action.after?.navigate} templates={templates} onChange={(navigate) => onChange(withAfter(action, { navigate }))} />
        </>
      )}

      {(action.kind === 'form' || action.kind === 'dialog') && (
        <div className="screen-studio__grid">
          <TextFields id={`${id}-dialog-title`} label={t('action.dialogTitle')} value={action.dialogTitle} onChange={(dialogTitle) => set({ dialogTitle })} />
        </div>
      )}

      {/* The action's form: the form editor once it exists; its first version (a submit call is needed) is written as JSON. */}
      {action.kind === 'form' && action.form && (
        <fieldset className="screen-studio__group">
          <legend>{t('action.form')}</legend>
          <FormEditor form={action.form} onChange={(form) => set({ form })} />
        </fieldset>
      )}
      {action.kind === 'form' && !action.form && (
        <fieldset className="screen-studio__group">
          <legend>{t('action.form')}</legend>
          <NodeJsonEditor value={action.form} pointer={`${pointer}/form`} what={t('action.form')} help={t('action.formHelp')} optional onChange={(form) => set({ form: form as FormNode | undefined })} />
        </fieldset>
      )}

      {action.kind === 'dialog' && (
        <fieldset className="screen-studio__group">
          <legend>{t('action.content')}</legend>
          <NodeJsonEditor value={action.content} pointer={`${pointer}/content`} what={t('action.content')} help={t('action.contentHelp')} optional onChange={(content) => set({ content: content as ScreenNode[] | undefined })} />
        </fieldset>
      )}
    </div>
  )
}
