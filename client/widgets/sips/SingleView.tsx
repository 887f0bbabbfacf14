import { useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { InputText } from 'primereact/inputtext'
import { ProgressSpinner } from 'primereact/progressspinner'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { api, saveFile } from '../../api/client'
import { errorText, reportError } from '../../api/errors'
import { useDelayedFlag } from '../../api/use-delayed-flag'
import { useMessages } from '../../i18n/i18n'
import { FieldShell } from '../../ui/FieldShell'
import { ErrorState } from '../../ui/states'
import { ConsumptionView } from './ConsumptionView'
import { InfoSections } from './InfoSections'
import { messages } from './messages'
import { RawView } from './RawView'
import { normalizeCups } from './sips-logic'
import type { SipsConsumption, SipsInfo } from '../../../schemas/business/sips'
import { useCupsCheck } from './use-cups-check'


/** One CUPS: the input (checked as typed) and, once looked up, everything SIPS knows of it. */
export function SingleView({ cups, onLookup }: { cups: string; onLookup: (cups: string) => void }) {
  const t = useMessages(messages)
  const [value, setValue] = useState(cups)
  const id = useId()
  const inputRef = useRef<HTMLInputElement>(null)
  const check = useCupsCheck(value)
  const [tried, setTried] = useState(false)

  // The URL may change from outside (a row of the list, back/forward): follow it.
  useEffect(() => setValue(cups), [cups])

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTried(true)
    if (!value.trim() || check.state === 'invalid') {
      inputRef.current?.focus()
      return
    }
    onLookup(check.state === 'valid' ? check.normalized : normalizeCups(value))
  }

  const messageId = `${id}-msg`
  const invalid = check.state === 'invalid' || (tried && !value.trim())
  return (
    <div className="sips-single">
      <form className="sips-form card" onSubmit={submit} role="search" aria-label={t('single.form')}>
        <FieldShell id={`${id}-cups`} label="CUPS" className="sips-form__field" notes={<CheckMessage id={messageId} check={check} empty={tried && !value.trim()} />}>
          <InputText
            id={`${id}-cups`}
            ref={inputRef}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder="ES0021000000000001RK"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={messageId}
            aria-invalid={invalid || undefined}
            invalid={invalid}
            className="sips-form__input"
          />
        </FieldShell>
        <Button type="submit" label={t('single.submit')} icon="pi pi-search" className="sips-form__submit" />
      </form>
      {cups && <SipsResult key={cups} cups={cups} />}
    </div>
  )
}

function CheckMessage({ id, check, empty }: { id: string; check: ReturnType<typeof useCupsCheck>; empty: boolean }) {
  const t = useMessages(messages)
  if (empty) {
    return (
      <small id={id} className="field-error p-error">
        {t('single.empty')}
      </small>
    )
  }
  switch (check.state) {
    case 'checking':
      return (
        <small id={id} className="field-check" aria-live="polite">
          <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {t('single.checking')}
        </small>
      )
    case 'valid':
      return (
        <small id={id} className={check.warning ? 'field-warning' : 'field-check field-check--ok'} aria-live="polite">
          <i className={check.warning ? 'pi pi-exclamation-triangle' : 'pi pi-check-circle'} aria-hidden="true" />
          {` ${check.warning ? t('single.validWarning', { warning: check.warning }) : check.distributor ? t('single.validWith', { distributor: check.distributor }) : t('single.valid')}`}
        </small>
      )
    case 'invalid':
      return (
        <small id={id} className="field-error p-error" aria-live="polite">
          {check.message}
        </small>
      )
    case 'unavailable':
      return (
        <small id={id} className="field-check" aria-live="polite">
          {t('single.unavailable')}
        </small>
      )
    default:
      return (
        <small id={id} className="field-help">
          {t('single.help')}
        </small>
      )
  }
}

/** Info, raw record and consumption of a CUPS; the raw record and consumption load once the info answered. */
function SipsResult({ cups }: { cups: string }) {
  const t = useMessages(messages)
  const info = useQuery({
    queryKey: ['sips', 'info', cups],
    queryFn: ({ signal }) => api.get<SipsInfo>('/api/sips/info', { params: { cups }, signal }),
    // Titled and worded by the endpoint catalogue (spec §8), as the consumption and the export below.
    meta: { reportErrors: true },
    staleTime: 5 * 60_000,
  })
  const consumo = useQuery({
    queryKey: ['sips', 'consumo', cups],
    queryFn: ({ signal }) => api.get<SipsConsumption>('/api/sips/info/consumo', { params: { cups }, signal }),
    enabled: info.isSuccess,
    meta: { reportErrors: true },
    staleTime: 5 * 60_000,
  })
  const loading = useDelayedFlag(info.isFetching)
  const [exporting, setExporting] = useState(false)

  const doExport = async () => {
    setExporting(true)
    try {
      saveFile(await api.download('/api/sips/export', { params: { cups }, fallbackName: `sips-${cups}.xlsx` }))
    } catch (err) {
      reportError(undefined, err)
    } finally {
      setExporting(false)
    }
  }

  if (info.isPending || (loading && !info.data)) {
    return (
      <div className="sips-loading" aria-busy="true">
        <ProgressSpinner style={{ width: '2.5rem', height: '2.5rem' }} strokeWidth="4" aria-label={t('single.loading')} />
        <span>{t('single.querying')}</span>
      </div>
    )
  }
  if (info.isError) {
    return (
      <ErrorState onRetry={() => void info.refetch()}>
        {errorText(info.error, t('error.single'))}
      </ErrorState>
    )
  }
  const data = info.data
  return (
    <section className="sips-result" aria-label={t('single.resultOf', { cups: data.Cups })}>
      <header className="sips-result__header card">
        <div className="sips-result__id">
          <h2 className="sips-result__title">
            <span className="code-cell">{data.Cups}</span>
          </h2>
          <p className="sips-result__subtitle">
            {[data.Tarifa?.Codigo, data.Distribuidora?.Nombre, [data.Municipio, data.Provincia].filter(Boolean).join(', ')].filter(Boolean).join(' · ')}
          </p>
        </div>
        <Button type="button" icon="pi pi-file-excel" label={t('common.export')} outlined loading={exporting} onClick={() => void doExport()} />
      </header>
      <InfoSections info={data} />
      <ConsumptionView query={consumo} />
      <RawView cups={cups} />
    </section>
  )
}
