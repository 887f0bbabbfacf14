import { Dropdown } from 'primereact/dropdown'
import { useState } from 'react'
import { useMessages } from '../../../i18n/i18n'
import { FieldShell } from '../../../ui/FieldShell'
import { callAt, paramsOf, validatorCalls, validatorFromCall, withField, type FormEditing } from './form-design'
import { formMessages } from './form-messages'

/** The field's server validator: one of the catalogue's validation calls, its parameter and answer fields read from the call. */
export function FieldValidatorEditor({ editing, index, error }: { editing: FormEditing; index: number; error?: string }) {
  const t = useMessages(formMessages)
  const { design, apply, calls } = editing
  const f = design.fields[index]!
  const v = f.validator
  const id = `${editing.id}-field-${index}-validator`
  const [underivable, setUnderivable] = useState<string | null>(null)
  const offered = validatorCalls(calls ?? [])
  const call = v ? callAt(offered, 'GET', v.endpoint) : null
  const options = offered.map((c) => ({ value: c.path, label: `${c.path.replace(/^api\/validators\//, '').toUpperCase()} — ${c.summary}` }))
  if (v && !call) options.push({ value: v.endpoint, label: v.endpoint })

  const pick = (path: string | null) => {
    if (!path) {
      setUnderivable(null)
      return apply(withField(design, index, { validator: null }))
    }
    const chosen = offered.find((c) => c.path === path)
    const validator = chosen ? validatorFromCall(chosen) : null
    if (!validator) return setUnderivable(t('validator.underivable', { call: path }))
    setUnderivable(null)
    return apply(withField(design, index, { validator }))
  }

  return (
    <fieldset className="form-editor__sub">
      <legend>{t('validator.title')}</legend>
      <div className="screen-studio__grid">
        <FieldShell id={id} label={t('validator.call')} hint={t('validator.help')} error={underivable ?? error}>
          <Dropdown inputId={id} value={v?.endpoint ?? null} onChange={(e) => void pick((e.value as string | null) ?? null)} options={options} placeholder={t('validator.none')} showClear loading={!calls} aria-invalid={!!(underivable ?? error)} />
        </FieldShell>
        {v && call && (
          <FieldShell id={`${id}-param`} label={t('validator.param')}>
            <Dropdown inputId={`${id}-param`} value={v.param} onChange={(e) => apply(withField(design, index, { validator: { ...v, param: e.value as string } }))} options={paramsOf(call)} />
          </FieldShell>
        )}
      </div>
      {v && (
        <p className="screen-studio__help form-editor__summary">
          {t('validator.summary', { endpoint: v.endpoint, param: v.param || '?', valid: v.validField, message: v.messageField })}
          {v.normalizedField ? t('validator.normalized', { normalized: v.normalizedField }) : ''}
        </p>
      )}
    </fieldset>
  )
}
