import { Dropdown } from 'primereact/dropdown'
import { Message } from 'primereact/message'
import { useState } from 'react'
import type { ScreenFile } from '../../../../schemas/screen'
import { localized, useMessages } from '../../../i18n/i18n'
import { FieldShell } from '../../../ui/FieldShell'
import { schemaProblem } from '../schema-check'
import { FormEditor } from './FormEditor'
import { formsOfScreen, withFormAt } from './form-design'
import { formMessages } from './form-messages'

/**
 * «Formularios» in the Diseño tab: the structured editor of each form of the screen (picked
 * when there are several), written back at its JSON pointer. The whole screen must still pass
 * its schema, else the change is not applied and the reason shows.
 */
export function FormsSection({ screen, onChange }: { screen: ScreenFile; onChange: (next: ScreenFile) => void }) {
  const t = useMessages(formMessages)
  const forms = formsOfScreen(screen)
  const [picked, setPicked] = useState(0)
  const [refused, setRefused] = useState<string | null>(null)
  const current = forms[Math.min(picked, forms.length - 1)]
  if (!current) return null
  return (
    <fieldset className="screen-studio__group">
      <legend>{t('forms.title')}</legend>
      <p className="screen-studio__help">{t('forms.help')}</p>
      {forms.length > 1 && (
        <FieldShell id="studio-form-pick" label={t('forms.pick')}>
          <Dropdown inputId="studio-form-pick" value={Math.min(picked, forms.length - 1)} onChange={(e) => setPicked(e.value as number)} options={forms.map((f, i) => ({ value: i, label: `${f.form.title ? localized(f.form.title) : f.form.id} (${f.pointer})` }))} />
        </FieldShell>
      )}
      {refused && <Message severity="error" className="screen-studio__message" text={refused} />}
      <FormEditor
        key={current.pointer}
        form={current.form}
        onChange={(form) => {
          const next = withFormAt(screen, current.pointer, form)
          const problem = schemaProblem(next)
          setRefused(problem ? t('forms.refused', { error: problem }) : null)
          if (!problem) onChange(next)
        }}
      />
    </fieldset>
  )
}
