import { Dialog } from 'primereact/dialog'
import type { ActionSpec, AfterSpec, FormNode } from '../../../schemas/screen'
import { useI18n } from '../../i18n/i18n'
import { useReturnFocus } from '../../ui/return-focus'
import { RenderContext } from '../context'
import { FormView } from '../form/FormView'
import { fill, type TemplateContext } from '../template'

/** A form opened from an action, in a modal dialog (spec §9: 25vw wide by default). */
export function FormDialog(props: {
  action: ActionSpec
  form: FormNode
  ctx: TemplateContext
  ownerId?: string
  onClose: () => void
  onReveal: (value: string, spec: NonNullable<AfterSpec['reveal']>) => void
  /** The button that opened it: focus goes back to it on closing, where what had focus is gone. */
  opener?: () => HTMLElement | null
}) {
  const { l } = useI18n()
  const { action, form, ctx, ownerId, onClose, onReveal } = props
  useReturnFocus(props.opener)
  return (
    <Dialog
      header={fill(l(action.dialogTitle ?? form.title ?? action.label), ctx)}
      visible
      modal
      onHide={onClose}
      style={{ width: action.dialogWidth ?? '25vw' }}
      breakpoints={{ '1400px': '40vw', '960px': '70vw', '641px': '95vw' }}
      draggable={false}
      className="form-dialog"
    >
      <RenderContext value={ctx}>
        <FormView form={form} inDialog ownerId={ownerId} onDone={onClose} onReveal={onReveal} fallbackArea={action.errorArea} fallbackMessage={action.errorMessage} lastArea={l(action.label)} />
      </RenderContext>
    </Dialog>
  )
}
