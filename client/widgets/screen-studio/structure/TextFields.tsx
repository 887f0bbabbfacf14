import { InputText } from 'primereact/inputtext'
import type { Text } from '../../../../schemas/screen'
import { useMessages } from '../../../i18n/i18n'
import { describedBy } from '../../../ui/described-by'
import { FieldShell } from '../../../ui/FieldShell'
import { messages } from './messages'
import { textOf, textParts } from './text-value'

/** A screen text as two labelled inputs side by side, Spanish and English, on a row of their own; a missing English is flagged (the screen shows the Spanish). */
export function TextFields({ id, label, value, hint, onChange }: { id: string; label: string; value: Text | undefined; hint?: string; onChange: (next: Text | undefined) => void }) {
  const t = useMessages(messages)
  const { es, en } = textParts(value)
  return (
    <div className="structure__pair">
      <FieldShell id={`${id}-es`} label={t('text.es', { label })} hint={hint}>
        <InputText id={`${id}-es`} value={es} onChange={(e) => onChange(textOf(e.target.value, en, value))} aria-describedby={describedBy(`${id}-es`, hint, null)} />
      </FieldShell>
      <FieldShell id={`${id}-en`} label={t('text.en', { label })}>
        <InputText id={`${id}-en`} value={en} onChange={(e) => onChange(textOf(es, e.target.value, value))} placeholder={es} className={es && !en ? 'screen-studio__missing' : undefined} />
      </FieldShell>
    </div>
  )
}
