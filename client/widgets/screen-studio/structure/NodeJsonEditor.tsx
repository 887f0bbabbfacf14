import { InputTextarea } from 'primereact/inputtextarea'
import { Message } from 'primereact/message'
import { useEffect, useId, useMemo, useState } from 'react'
import { useMessages } from '../../../i18n/i18n'
import { messages } from './messages'
import { problemWith } from './node-check'
import { useStructure } from './structure-context'

/**
 * One value of the screen (a node without a structured editor, an action's form or dialog) as
 * JSON, checked as the admin types against the whole screen with the value in place: the first
 * problem, in Spanish with its JSON path, keeps the text here; a valid text goes to the draft.
 */
export function NodeJsonEditor(props: { value: unknown; pointer: string; what: string; help: string; optional?: boolean; rows?: number; onChange: (next: unknown) => void }) {
  const { value, pointer, what, help, optional, rows = 18, onChange } = props
  const t = useMessages(messages)
  const { screen } = useStructure()
  const id = useId()
  const shown = useMemo(() => (value === undefined ? '' : JSON.stringify(value, null, 2)), [value])
  const [text, setText] = useState(shown)
  const [problem, setProblem] = useState<string | null>(null)
  // A change made elsewhere (another tab, a structured field) shows here unless the admin is mid-way through a broken text.
  useEffect(() => {
    if (!problem) setText(shown)
  }, [shown, problem])

  const edit = (next: string) => {
    setText(next)
    if (optional && !next.trim()) {
      setProblem(null)
      return onChange(undefined)
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(next)
    } catch (err) {
      return setProblem(t('json.parse', { error: (err as Error).message }))
    }
    const found = problemWith(screen, pointer, parsed)
    if (found) return setProblem(t('json.schema', { error: found }))
    setProblem(null)
    onChange(parsed)
  }

  return (
    <div className="structure__json">
      <p className="screen-studio__help" id={`${id}-help`}>
        {help}
      </p>
      <InputTextarea value={text} onChange={(e) => edit(e.target.value)} rows={rows} className="screen-studio__code" spellCheck={false} aria-label={t('json.label', { what })} aria-describedby={`${id}-help ${id}-state`} aria-invalid={!!problem} />
      <div id={`${id}-state`} aria-live="polite">
        {problem ? <Message severity="error" text={problem} className="screen-studio__message" /> : <Message severity="success" text={text.trim() ? t('json.ok') : t('json.empty')} className="screen-studio__message" />}
      </div>
    </div>
  )
}
