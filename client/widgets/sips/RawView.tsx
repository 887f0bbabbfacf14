import { useQuery } from '@tanstack/react-query'
import { SelectButton } from 'primereact/selectbutton'
import { useState } from 'react'
import { api } from '../../api/client'
import { useI18n, useMessages } from '../../i18n/i18n'
import { intlLocale } from '../../ui/format'
import { messages } from './messages'

/** Units of the national system's raw fields (W and Wh), shown next to the values. */
export function unitOf(key: string): string {
  if (/W(P\d)?$/.test(key) && /potencia|valorDerechos/i.test(key)) return ' W'
  if (/Wh(P\d)?$/.test(key)) return ' Wh'
  if (/Euros$/.test(key)) return ' €'
  return ''
}

function show(value: unknown, locale: string): string {
  if (value === null || value === undefined || value === '') return '—'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number') return value.toLocaleString(locale, { maximumFractionDigits: 3 })
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** The raw SIPS record (the national system's own field names, W/Wh), collapsed by default. */
export function RawView({ cups }: { cups: string }) {
  const t = useMessages(messages)
  const { lang } = useI18n()
  const views = [
    { label: t('raw.view.fields'), value: 'kv' },
    { label: 'JSON', value: 'json' },
  ]
  const [open, setOpen] = useState(false)
  const [view, setView] = useState<'kv' | 'json'>('kv')
  const raw = useQuery({
    queryKey: ['sips', 'raw', cups],
    queryFn: ({ signal }) => api.get<Record<string, unknown>>('/api/sips/info/raw', { params: { cups }, signal }),
    // Titled and worded by the endpoint catalogue (spec §8).
    meta: { reportErrors: true },
    staleTime: 5 * 60_000,
  })
  return (
    <details className="card sips-raw" open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary className="sips-raw__summary">{t('raw.summary')}</summary>
      {open && (
        <div className="sips-raw__body">
          {raw.isPending && <p className="sips-muted">{t('common.loading')}</p>}
          {raw.isError && <p className="sips-muted">{t('raw.error')}</p>}
          {raw.data && (
            <>
              <SelectButton value={view} options={views} onChange={(e) => e.value && setView(e.value as 'kv' | 'json')} allowEmpty={false} aria-label={t('raw.format')} className="sips-raw__switch" />
              {view === 'json' ? (
                <pre className="sips-raw__json" tabIndex={0} aria-label={t('raw.json')}>
                  {JSON.stringify(raw.data, null, 2)}
                </pre>
              ) : (
                <div className="sips-raw__scroll" tabIndex={0} role="region" aria-label={t('raw.fields')}>
                  <table className="simple-table sips-raw__table">
                    <caption className="p-sr-only">{t('raw.fields')}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{t('raw.col.field')}</th>
                        <th scope="col">{t('raw.col.value')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {Object.entries(raw.data).map(([k, v]) => (
                        <tr key={k}>
                          <th scope="row" className="code-cell">
                            {k}
                          </th>
                          <td>
                            {show(v, intlLocale(lang))}
                            {typeof v === 'number' ? unitOf(k) : ''}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </>
          )}
        </div>
      )}
    </details>
  )
}
