import { InputNumber } from 'primereact/inputnumber'
import { InputText } from 'primereact/inputtext'
import { useEffect, useState, type ReactNode } from 'react'
import { useMessages } from '../../../i18n/i18n'
import { describedBy } from '../../../ui/described-by'
import { FieldShell } from '../../../ui/FieldShell'
import type { FormProblem, TextDesign } from './form-design'
import { formMessages } from './form-messages'

/**
 * The form editor's inputs. Each keeps what the admin typed until the change is applied: a
 * change the editor refuses (it would break the screen) stays in the box with the reason under
 * it, and the form is left as it was.
 */

/** Answers why a change was refused, or null when it was applied. */
export type Commit<T> = (value: T) => string | null

/** A labelled text box. `lazy`: applied when the box is left or Enter is pressed (a name others refer to), else as typed. */
export function TextBox(props: { id: string; label: ReactNode; value: string; commit: Commit<string>; lazy?: boolean; hint?: ReactNode; error?: ReactNode; required?: boolean; placeholder?: string; className?: string }) {
  const { id, label, value, commit, lazy, hint, error, required, placeholder, className } = props
  const [text, setText] = useState(value)
  const [refused, setRefused] = useState<string | null>(null)
  // A change made elsewhere (another tab, an undo) shows here unless the box holds a refused text.
  useEffect(() => {
    if (!refused) setText(value)
  }, [value, refused])
  const apply = (next: string) => {
    if (next === value) return setRefused(null)
    setRefused(commit(next))
  }
  const shown = refused ?? error
  return (
    <FieldShell id={id} label={label} hint={hint} error={shown} required={required} className={className}>
      <InputText
        id={id}
        value={text}
        placeholder={placeholder}
        onChange={(e) => {
          setText(e.target.value)
          if (!lazy) apply(e.target.value)
        }}
        onBlur={() => (lazy ? apply(text.trim()) : undefined)}
        onKeyDown={(e) => (lazy && e.key === 'Enter' ? apply(text.trim()) : undefined)}
        aria-invalid={!!shown}
        aria-describedby={describedBy(id, hint, shown)}
      />
    </FieldShell>
  )
}

/** A text in Spanish and English, side by side. Spanish comes first: English alone is refused; `required` refuses an empty Spanish. */
export function TextPair(props: { id: string; labels: [ReactNode, ReactNode]; value: TextDesign; commit: Commit<TextDesign>; required?: boolean; hint?: ReactNode; error?: ReactNode }) {
  const { id, labels, value, commit, required, hint, error } = props
  const t = useMessages(formMessages)
  const es = (text: string) => {
    if (!text && required) return t('text.esEmpty')
    if (!text && value.en) return t('text.esFirst')
    return commit({ ...value, es: text })
  }
  const en = (text: string) => (text && !value.es ? t('text.esFirst') : commit({ ...value, en: text }))
  return (
    <div className="form-editor__pair">
      <TextBox id={`${id}-es`} label={labels[0]} value={value.es} commit={es} required={required} hint={hint} error={error} />
      <TextBox id={`${id}-en`} label={labels[1]} value={value.en} commit={en} placeholder={value.es} />
    </div>
  )
}

/** A labelled number, empty for none. */
export function NumberBox(props: { id: string; label: ReactNode; value: number | null; commit: Commit<number | null>; error?: ReactNode; integer?: boolean }) {
  const { id, label, value, commit, error, integer } = props
  const [refused, setRefused] = useState<string | null>(null)
  const shown = refused ?? error
  return (
    <FieldShell id={id} label={label} error={shown}>
      <InputNumber
        inputId={id}
        value={value}
        onValueChange={(e) => setRefused(commit(e.value ?? null))}
        useGrouping={false}
        maxFractionDigits={integer ? 0 : 6}
        aria-invalid={!!shown}
        aria-describedby={describedBy(id, null, shown)}
      />
    </FieldShell>
  )
}

/** The problems found at one place, each in its words: errors, then warnings. */
export function problemText(problems: readonly FormProblem[], t: (key: FormProblem['code'], vars?: Record<string, string | number>) => string, severity: FormProblem['severity'] = 'error'): string | undefined {
  const texts = problems.filter((p) => p.severity === severity).map((p) => t(p.code, p.vars))
  return texts.length ? texts.join(' ') : undefined
}

/** Warnings: shown, not blocking. */
export function Warning({ children }: { children?: ReactNode }) {
  if (!children) return null
  return <small className="form-editor__warning">{children}</small>
}
