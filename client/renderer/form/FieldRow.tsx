import { useI18n, useMessages } from '../../i18n/i18n'
import { describedBy as describe } from '../../ui/described-by'
import { FieldShell } from '../../ui/FieldShell'
import { FieldInput } from './FieldInput'
import { messages } from './messages'
import { useFieldController, type FieldControllerProps } from './use-field-controller'

export interface FieldRowProps extends FieldControllerProps {
  formId: string
  onBlur: () => void
}

/** One field: label, input and the notes of its controller (rules, server validator, lookup, check). */
export function FieldRow(props: FieldRowProps) {
  const { l } = useI18n()
  const t = useMessages(messages)
  const { formId, field, value, error, ctx, area, lastArea, onChange, onBlur, onServerResult, onFill } = props
  const id = `${formId}-${field.name}`
  const { check, message, lookup, warning, options, optionsLoading } = useFieldController({ field, value, error, ctx, area, lastArea, onChange, onServerResult, onFill })
  const describedBy = describe(
    id,
    field.help,
    message,
    check.state === 'checking' || check.state === 'valid' || check.state === 'unavailable' ? `${id}-check` : null,
    lookup.text ? `${id}-lookup` : null,
    warning ? `${id}-warning` : null,
  )
  const notes = (
    <>
      {check.state === 'checking' && (
        <small id={`${id}-check`} className="field-check field-check--busy">
          <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {t('check.busy')}
        </small>
      )}
      {check.state === 'valid' && (
        <small id={`${id}-check`} className="field-check field-check--ok">
          <i className="pi pi-check-circle" aria-hidden="true" /> {t('check.valid')}
        </small>
      )}
      {check.state === 'unavailable' && (
        <small id={`${id}-check`} className="field-check">
          {check.message}
        </small>
      )}
      {lookup.text && (
        <small id={`${id}-lookup`} className={`field-check ${lookup.busy ? 'field-check--busy' : 'field-check--info'}`} role="status">
          <i className={`pi ${lookup.busy ? 'pi-spin pi-spinner' : 'pi-user'}`} aria-hidden="true" /> {lookup.text}
        </small>
      )}
      {warning && (
        <small id={`${id}-warning`} className="field-warning" role="status">
          <i className="pi pi-exclamation-triangle" aria-hidden="true" /> {warning}
        </small>
      )}
    </>
  )
  return (
    <FieldShell
      id={id}
      name={field.name}
      label={l(field.label)}
      required={field.required}
      wide={field.wide}
      check={field.input === 'checkbox'}
      notes={notes}
      error={message}
      hint={field.help ? l(field.help) : undefined}
    >
      <FieldInput field={field} id={id} value={value} invalid={!!message} describedBy={describedBy} options={options} optionsLoading={optionsLoading} onChange={onChange} onBlur={onBlur} />
    </FieldShell>
  )
}
