import { Button } from 'primereact/button'
import { Dialog } from 'primereact/dialog'
import { InputTextarea } from 'primereact/inputtextarea'
import { Message } from 'primereact/message'
import { useState } from 'react'
import { ACCESS_REASON_MAX, ACCESS_REASON_MIN } from '../../../schemas/personal-data'
import { useMessages } from '../../i18n/i18n'
import { useReturnFocus } from '../../ui/return-focus'
import { messages } from '../messages'

export interface ReasonDialogProps {
  /** Id of the reason's field (unique on the page). */
  inputId: string
  title: string
  /** What the reason is asked for, and that it is kept in the audit. */
  label: string
  confirmLabel: string
  confirmIcon: string
  busy?: boolean
  /** A failure to show under the field (the server's refusal of the reason). */
  failure?: string | null
  onConfirm(reason: string): void
  onCancel(): void
}

/**
 * Asks why the user needs personal data clear (a reveal, an export with personal data): the
 * reason, trimmed and within the BFF's bounds, goes with the request and into the audit.
 */
export function ReasonDialog(props: ReasonDialogProps) {
  const t = useMessages(messages)
  const [reason, setReason] = useState('')
  const [tooShort, setTooShort] = useState(false)
  useReturnFocus()
  const failure = tooShort ? t('personal.reason.required') : props.failure
  return (
    <Dialog header={props.title} visible modal onHide={props.onCancel} style={{ width: '30rem' }} breakpoints={{ '641px': '95vw' }} draggable={false}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          const trimmed = reason.trim()
          setTooShort(trimmed.length < ACCESS_REASON_MIN)
          if (trimmed.length >= ACCESS_REASON_MIN) props.onConfirm(trimmed)
        }}
      >
        <label htmlFor={props.inputId} className="block mb-2">
          {props.label}
        </label>
        <InputTextarea id={props.inputId} value={reason} onChange={(e) => setReason(e.target.value)} rows={3} maxLength={ACCESS_REASON_MAX} autoFocus className="w-full" />
        {failure && <Message severity="error" text={failure} className="mt-2 w-full" />}
        <div className="dialog-actions">
          <Button type="button" text label={t('personal.reason.cancel')} onClick={props.onCancel} />
          <Button type="submit" icon={props.confirmIcon} label={props.confirmLabel} loading={props.busy} />
        </div>
      </form>
    </Dialog>
  )
}
