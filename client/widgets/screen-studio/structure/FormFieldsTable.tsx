import { Button } from 'primereact/button'
import { Checkbox } from 'primereact/checkbox'
import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import { useState } from 'react'
import { Tag } from '../../../ui/plain/Tag'
import { localized, useMessages } from '../../../i18n/i18n'
import { confirm } from '../../../ui/confirm'
import { FieldShell } from '../../../ui/FieldShell'
import { FieldEditor } from './FieldEditor'
import { dependencyOf, nameProblem, textOf, withField, withFieldMoved, withNewField, withoutField, type FieldDesign, type FormEditing } from './form-design'
import { formMessages } from './form-messages'
import { problemText } from './FormInputs'

/** The form's fields as a list: kind, required and step at a glance, moved and removed here, each opened below its row to edit the rest. */
export function FormFieldsTable({ editing, refused }: { editing: FormEditing; refused: { field: number | null; text: string } | null }) {
  const t = useMessages(formMessages)
  const { design, apply } = editing
  const [open, setOpen] = useState<string | null>(null)
  const [newName, setNewName] = useState('')
  const [newProblem, setNewProblem] = useState<string | null>(null)

  const add = () => {
    const name = newName.trim()
    const problem = nameProblem(editing.form, -1, name)
    if (problem) return setNewProblem(t(problem.code, problem.vars))
    const refusal = apply(withNewField(design, name))
    setNewProblem(refusal)
    if (!refusal) {
      setNewName('')
      setOpen(name)
    }
  }
  const remove = async (i: number, name: string) => {
    if (await confirm(t('fields.removeConfirm', { field: name }))) apply(withoutField(design, i))
  }

  return (
    <fieldset className="screen-studio__group">
      <legend>{t('fields.title')}</legend>
      <div className="form-editor__fields" data-steps={design.steps ? 'on' : 'off'}>
        <div className="form-editor__row form-editor__row--head" aria-hidden="true">
          <span className="form-editor__cell--name">{t('fields.name')}</span>
          <span className="form-editor__cell--label">{t('fields.label')}</span>
          <span className="form-editor__cell--input">{t('fields.input')}</span>
          <span className="form-editor__cell--required">{t('fields.required')}</span>
          {design.steps && <span className="form-editor__cell--step">{t('fields.step')}</span>}
          <span className="form-editor__cell--extras">{t('fields.extras')}</span>
          <span className="form-editor__cell--actions">{t('fields.move')}</span>
        </div>
        <ol className="form-editor__list" aria-label={t('fields.title')}>
          {design.fields.map((f, i) => (
            <FieldRow
              key={`${i}-${f.name}`}
              editing={editing}
              field={f}
              index={i}
              open={open === f.name}
              refused={refused?.field === i ? refused.text : null}
              onOpen={() => setOpen(open === f.name ? null : f.name)}
              onRenamed={(name) => setOpen(name)}
              onRemove={() => void remove(i, f.name)}
            />
          ))}
        </ol>
      </div>
      <div className="form-editor__add">
        <FieldShell id={`${editing.id}-new-field`} label={t('fields.newName')} hint={t('fields.newNameHelp')} error={newProblem}>
          <InputText
            id={`${editing.id}-new-field`}
            value={newName}
            onChange={(e) => {
              setNewName(e.target.value)
              setNewProblem(null)
            }}
            onKeyDown={(e) => (e.key === 'Enter' && newName.trim() ? add() : undefined)}
            aria-invalid={!!newProblem}
          />
        </FieldShell>
        <Button type="button" icon="pi pi-plus" label={t('fields.add')} outlined size="small" disabled={!newName.trim()} onClick={add} />
      </div>
    </fieldset>
  )
}

function FieldRow(props: { editing: FormEditing; field: FieldDesign; index: number; open: boolean; refused: string | null; onOpen: () => void; onRenamed: (name: string) => void; onRemove: () => void }) {
  const { editing, field: f, index: i, open, refused, onOpen, onRenamed, onRemove } = props
  const t = useMessages(formMessages)
  const { design, apply } = editing
  const mine = editing.problems.filter((p) => p.field === i && p.step === null)
  const stepProblems = mine.filter((p) => p.place === 'step')
  const errors = mine.filter((p) => p.severity === 'error').length
  const dep = f.options.kind === 'call' ? dependencyOf(f.options.source.params) : null
  const stepId = `${editing.id}-field-${i}-step`
  const label = localized(textOf(f.label)) || f.name
  return (
    <li className={open ? 'form-editor__item is-open' : 'form-editor__item'}>
      <div className="form-editor__row">
        <span className="form-editor__cell--name">
          <code translate="no">{f.name}</code>
          {errors > 0 && <span className="form-editor__count">{t('fields.problemCount', { n: errors })}</span>}
        </span>
        <span className="form-editor__cell--label">{label}</span>
        <span className="form-editor__cell--input">{t(`input.${f.input}`)}</span>
        <span className="form-editor__cell--required">
          <Checkbox inputId={`${editing.id}-field-${i}-req`} checked={f.required} onChange={(e) => apply(withField(design, i, { required: !!e.checked }))} aria-label={`${t('fields.required')}: ${f.name}`} />
          {/* Shown only where the row folds onto two lines and the heading row is hidden. */}
          <label htmlFor={`${editing.id}-field-${i}-req`} className="form-editor__inline-label" aria-hidden="true">
            {t('fields.required')}
          </label>
        </span>
        {design.steps && (
          <span className="form-editor__cell--step">
            <Dropdown
              inputId={stepId}
              value={f.step}
              onChange={(e) => apply(withField(design, i, { step: (e.value as string | null) || null }))}
              options={design.steps.map((s) => ({ value: s.key, label: localized(textOf(s.title)) || s.key }))}
              placeholder={t('fields.noStep')}
              aria-label={`${t('fields.step')}: ${f.name}`}
              className={stepProblems.length ? 'p-invalid' : undefined}
              aria-describedby={stepProblems.length ? `${stepId}-error` : undefined}
            />
            {problemText(stepProblems, t) && (
              <small id={`${stepId}-error`} className="p-error field-error" role="alert">
                {problemText(stepProblems, t)}
              </small>
            )}
            {problemText(stepProblems, t, 'warning') && <small className="form-editor__warning">{problemText(stepProblems, t, 'warning')}</small>}
          </span>
        )}
        <span className="form-editor__cell--extras">
          <span className="form-editor__tags">
            {f.validator && <Tag severity="info" value={t('fields.hasValidator', { call: f.validator.endpoint.replace(/^api\//, '') })} />}
            {f.options.kind === 'call' && <Tag severity="secondary" value={t('fields.hasOptions', { call: f.options.source.endpoint.replace(/^api\//, '') })} />}
            {f.options.kind === 'list' && <Tag severity="secondary" value={t('fields.hasList', { n: f.options.items.length })} />}
            {dep && <Tag severity="warning" value={t('fields.dependsOn', { field: dep.field })} />}
          </span>
        </span>
        <span className="screen-studio__move form-editor__cell--actions">
          <Button type="button" icon={open ? 'pi pi-chevron-up' : 'pi pi-pencil'} text rounded size="small" onClick={onOpen} aria-expanded={open} aria-label={t(open ? 'fields.close' : 'fields.edit', { field: f.name })} />
          <Button type="button" icon="pi pi-arrow-up" text rounded size="small" disabled={i === 0} onClick={() => apply(withFieldMoved(design, i, -1))} aria-label={t('fields.up', { field: f.name })} />
          <Button type="button" icon="pi pi-arrow-down" text rounded size="small" disabled={i === design.fields.length - 1} onClick={() => apply(withFieldMoved(design, i, 1))} aria-label={t('fields.down', { field: f.name })} />
          <Button type="button" icon="pi pi-trash" text rounded size="small" severity="danger" onClick={onRemove} aria-label={t('fields.remove', { field: f.name })} />
        </span>
      </div>
      {open && (
        <div className="form-editor__detail">
          <FieldEditor editing={editing} index={i} refused={refused} onRenamed={onRenamed} />
        </div>
      )}
    </li>
  )
}
