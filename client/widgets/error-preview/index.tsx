import { Button } from 'primereact/button'
import { useState } from 'react'
import { ErrorView } from '../../ui/ErrorView'
import { localized, useI18n, useMessages } from '../../i18n/i18n'
import type { Language, LocalizedText } from '../../../schemas/i18n'
import { messages } from './messages'
import './error-preview.css'

/** Statuses with a name of their own on their button (`status.<n>` of ./messages.ts); others show the number. */
const NAMED = [401, 403, 404, 500, 503] as const
const isNamed = (s: number): s is (typeof NAMED)[number] => (NAMED as readonly number[]).includes(s)

/** The `title` prop: a text, or `{ es, en }` as screen JSON writes translated texts; '' when neither. */
function titleText(title: unknown, lang: Language): string {
  if (typeof title === 'string') return title
  if (title && typeof title === 'object' && typeof (title as LocalizedText).es === 'string') return localized(title as LocalizedText, lang)
  return ''
}

/**
 * A live preview of the portal's real error page (`ErrorView`), one status at a time, beside the
 * explanation of each situation. Props: `statuses` (default 404, 401, 500), `title` (a text or `{ es, en }`).
 */
export default function ErrorPreview({ statuses, title }: { statuses?: unknown; title?: unknown }) {
  const list = Array.isArray(statuses) ? statuses.filter((s): s is number => typeof s === 'number' && s >= 100 && s <= 599) : []
  const options = list.length ? list : [404, 401, 500]
  const [status, setStatus] = useState<number>(options[0]!)
  const t = useMessages(messages)
  const { lang } = useI18n()
  const heading = titleText(title, lang) || t('title')
  return (
    <section className="card error-preview" aria-labelledby="error-preview-title">
      <div className="error-preview__header">
        <h2 id="error-preview-title" className="error-preview__title">
          {heading}
        </h2>
        <div className="error-preview__choices" role="group" aria-label={t('choices')}>
          {options.map((s) => (
            <Button key={s} type="button" size="small" label={isNamed(s) ? t(`status.${s}`) : String(s)} outlined={s !== status} aria-pressed={s === status} onClick={() => setStatus(s)} />
          ))}
        </div>
      </div>
      <p className="error-preview__caption" id="error-preview-caption">
        {t('caption', { status })}
      </p>
      <div className="error-preview__frame" aria-describedby="error-preview-caption" role="group" aria-label={t('frame', { status })}>
        <ErrorView status={status} />
      </div>
    </section>
  )
}
