import { InputTextarea } from 'primereact/inputtextarea'
import { Message } from 'primereact/message'
import { useEffect, useMemo, useState } from 'react'
import type { ScreenFile } from '../../../schemas/screen'
import { useMessages } from '../../i18n/i18n'
import { messages } from './messages'
import { schemaProblem } from './schema-check'

/**
 * The whole screen file as JSON, checked against the screen schema as the admin types (the
 * first error names its JSON path); a valid text replaces the edited screen at once. The server
 * checks again on save, against the call catalogue too.
 */
export function JsonEditor({ screen, onChange }: { screen: ScreenFile; onChange: (next: ScreenFile) => void }) {
  const t = useMessages(messages)
  const shown = useMemo(() => JSON.stringify(screen, null, 2), [screen])
  const [text, setText] = useState(shown)
  const [problem, setProblem] = useState<string | null>(null)
  // An edit made in another tab (design, texts) shows here unless the admin is mid-way through a broken text.
  useEffect(() => {
    if (!problem) setText(shown)
  }, [shown, problem])

  const edit = (next: string) => {
    setText(next)
    let parsed: unknown
    try {
      parsed = JSON.parse(next)
    } catch (err) {
      return setProblem(t('json.parse', { error: (err as Error).message }))
    }
    const found = schemaProblem(parsed)
    if (found) return setProblem(t('json.schema', { error: found }))
    setProblem(null)
    onChange(parsed as ScreenFile)
  }

  return (
    <div className="screen-studio__json">
      <p className="screen-studio__help" id="studio-json-help">
        {t('json.help')}
      </p>
      <InputTextarea value={text} onChange={(e) => edit(e.target.value)} rows={28} className="screen-studio__code" spellCheck={false} aria-label={t('json.label')} aria-describedby="studio-json-help studio-json-state" aria-invalid={!!problem} />
      <div id="studio-json-state" aria-live="polite">
        {problem ? <Message severity="error" text={problem} className="screen-studio__message" /> : <Message severity="success" text={t('json.ok')} className="screen-studio__message" />}
      </div>
    </div>
  )
}
