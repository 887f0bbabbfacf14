import { Button } from 'primereact/button'
import { useMemo, useState } from 'react'
import { useI18n, useMessages } from '../../i18n/i18n'
import { intlLocale } from '../../ui/format'
import { messages } from './messages'
import { prettyBody, statusKind, statusText, tokenizeJson } from './request'

export interface CallResult {
  method: string
  url: string
  status: number
  ms: number
  headers: [string, string][]
  body: string
}

/** Status, time, headers of interest and the body (pretty JSON, coloured; the colours only add to the text). */
export function ResponseView({ result }: { result: CallResult }) {
  const t = useMessages(messages)
  const { lang } = useI18n()
  const [copied, setCopied] = useState(false)
  const body = useMemo(() => prettyBody(result.body), [result.body])
  const tokens = useMemo(() => (body.json ? tokenizeJson(body.text) : null), [body])
  const kind = statusKind(result.status)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(body.text)
      setCopied(true)
      setTimeout(() => setCopied(false), 2000)
    } catch {
      setCopied(false)
    }
  }
  return (
    <div className="apitest__result">
      <p className="apitest__request-line">
        <code>
          {result.method} {result.url}
        </code>
      </p>
      <dl className="apitest__summary">
        <div>
          <dt>{t('response.status')}</dt>
          <dd>
            <span className={`apitest__status apitest__status--${kind}`} data-testid="apitest-status">
              {result.status || '—'}
            </span>{' '}
            {statusText(result.status)}
          </dd>
        </div>
        <div>
          <dt>{t('response.time')}</dt>
          <dd data-testid="apitest-time">{Math.round(result.ms)} ms</dd>
        </div>
        <div>
          <dt>{t('response.size')}</dt>
          <dd>{t('response.bytes', { n: new Blob([result.body]).size.toLocaleString(intlLocale(lang)) })}</dd>
        </div>
      </dl>
      {result.headers.length > 0 ? (
        <details className="apitest__headers" open>
          <summary>{t('response.headers')}</summary>
          <dl>
            {result.headers.map(([name, value]) => (
              <div key={name}>
                <dt>
                  <code>{name}</code>
                </dt>
                <dd>
                  <code>{value}</code>
                </dd>
              </div>
            ))}
          </dl>
        </details>
      ) : (
        kind !== 'ok' && <p className="field-help">{t('response.noHeaders')}</p>
      )}
      <div className="apitest__body-header">
        <h3 className="apitest__body-title" id="apitest-body-title">
          {body.json ? t('response.body.json') : body.text ? t('response.body.text') : t('response.body')}
        </h3>
        {body.text && <Button type="button" size="small" text icon={copied ? 'pi pi-check' : 'pi pi-copy'} label={copied ? t('response.copied') : t('response.copy')} onClick={() => void copy()} />}
      </div>
      {body.text ? (
        <pre className={`apitest__body apitest__body--${kind}`} translate="no" tabIndex={0} aria-labelledby="apitest-body-title" data-testid="apitest-body">
          <code>
            {tokens
              ? tokens.map((t, i) =>
                  t.kind && t.kind !== 'punct' ? (
                    <span key={i} className={`json-${t.kind}`}>
                      {t.text}
                    </span>
                  ) : (
                    t.text
                  ),
                )
              : body.text}
          </code>
        </pre>
      ) : (
        <p className="field-help" data-testid="apitest-body">
          {t('response.noBody')}
        </p>
      )}
    </div>
  )
}
