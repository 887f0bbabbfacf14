import { Message } from 'primereact/message'
import { useMemo, useState } from 'react'
import type { FormNode } from '../../../../schemas/screen'
import { useMessages } from '../../../i18n/i18n'
import { useCatalogue } from '../studio-data'
import { formDesign, formOfDesign, formProblems, formSchemaProblem, type FormDesign, type FormEditing } from './form-design'
import { formMessages } from './form-messages'
import { FormFieldsTable } from './FormFieldsTable'
import { FormSubmitEditor } from './FormSubmitEditor'
import { StepsEditor } from './StepsEditor'
import './form-editor.css'

/**
 * The structured editor of one `form` node: its fields (kind, required, texts, bounds,
 * visibility, a validator and options from the catalogue, dependent options), its steps and
 * review, and its submit. A change that would break the screen's schema is not applied and the
 * reason shows where it was made; what the schema allows but is still wrong (a field no step
 * shows, a validator without its parameter…) is pointed out next to what it concerns.
 */
export function FormEditor({ form, onChange }: { form: FormNode; onChange: (next: FormNode) => void }) {
  const t = useMessages(formMessages)
  const catalogue = useCatalogue()
  const calls = catalogue.data ?? null
  const [refused, setRefused] = useState<{ field: number | null; text: string } | null>(null)
  const design = useMemo(() => formDesign(form), [form])
  const problems = useMemo(() => formProblems(form, calls), [form, calls])

  const applyForm = (next: FormNode): string | null => {
    const problem = formSchemaProblem(next)
    if (problem) {
      const text = t('forms.refused', { error: problem.text })
      setRefused({ field: problem.field, text })
      return text
    }
    setRefused(null)
    onChange(next)
    return null
  }
  const editing: FormEditing = { id: form.id, form, design, calls, problems, apply: (next: FormDesign) => applyForm(formOfDesign(next, form)), applyForm }
  const errors = problems.filter((p) => p.severity === 'error').length

  return (
    <div className="form-editor">
      {errors > 0 && <Message severity="error" className="screen-studio__message" text={t('forms.problems', { n: errors })} />}
      {refused && refused.field === null && <Message severity="error" className="screen-studio__message" text={refused.text} />}
      <FormFieldsTable editing={editing} refused={refused} />
      <StepsEditor editing={editing} />
      <FormSubmitEditor editing={editing} />
    </div>
  )
}
