import { Button } from 'primereact/button'
import { Dropdown } from 'primereact/dropdown'
import { InputNumber } from 'primereact/inputnumber'
import { useId, useState, type FormEvent } from 'react'
import { useI18n, useMessages } from '../../i18n/i18n'
import { FieldShell } from '../../ui/FieldShell'
import { formatDate, fromIsoDay, intlLocale, toIsoDay } from '../../ui/format'
import { messages } from './messages'
import { FEE_MAX, FEE_MIN, quickRange, rangeError, SERIES_START, type PriceParams, type Resolution } from './prices-logic'
import type { Modalidad } from '../../../schemas/business/energy'
import type { Tariff } from '../../../schemas/business/utility'
import { DateInput } from '../../ui/DateInput'

/** A day of the series as the calendars want it ('' for none). */
const day = (date: Date | null | undefined) => (date ? toIsoDay(date) : '')

/** Quick ranges, in order (labels: `params.quick.<key>` of ./messages.ts). */
const QUICK: Parameters<typeof quickRange>[0][] = ['dia', '7d', '30d', '12m', 'anio']

/** Range, tariff, modality and fee; applied together (and kept in the URL) with "Ver precios". */
export function ParamsForm({ params, lastDay, tarifas, defaultFee, onApply }: { params: PriceParams; lastDay: string; tarifas: Tariff[]; defaultFee: number | null; onApply: (p: PriceParams) => void }) {
  const id = useId()
  const t = useMessages(messages)
  const { lang } = useI18n()
  const [draft, setDraft] = useState(params)
  // The range that failed the check, kept rather than its message so the message follows a language switch.
  const [rejected, setRejected] = useState<{ desde: string; hasta: string; resolucion: Resolution } | null>(null)
  const error = rejected ? rangeError(rejected.desde, rejected.hasta, lastDay, rejected.resolucion) : null
  const set = (patch: Partial<PriceParams>) => setDraft((d) => ({ ...d, ...patch }))

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const problem = rangeError(draft.desde, draft.hasta, lastDay, draft.resolucion)
    setRejected(problem ? { desde: draft.desde, hasta: draft.hasta, resolucion: draft.resolucion } : null)
    if (!problem) onApply(draft)
  }
  const quick = (key: Parameters<typeof quickRange>[0]) => {
    const next = { ...draft, ...quickRange(key, lastDay) }
    const problem = rangeError(next.desde, next.hasta, lastDay, next.resolucion)
    setDraft(next)
    setRejected(problem ? { desde: next.desde, hasta: next.hasta, resolucion: next.resolucion } : null)
    if (!problem) onApply(next)
  }
  // Spanish dd/mm/yy, English mm/dd/yy (spec §9); numbers typed the language's way.
  const dateFormat = lang === 'en' ? 'mm/dd/yy' : 'dd/mm/yy'
  const modalidades: { value: Modalidad; label: string }[] = [
    { value: 'sin_impuestos', label: t('params.withoutTaxes') },
    { value: 'con_impuestos', label: t('params.withTaxes') },
  ]

  const resolutions: { value: Resolution; label: string }[] = (['auto', 'nativa', 'diaria'] as const).map((value) => ({ value, label: t(`params.resolution.${value}`) }))

  const errId = `${id}-err`
  return (
    <form className="card prices-params" onSubmit={submit} aria-label={t('params.label')}>
      <div className="prices-params__fields">
        <FieldShell id={`${id}-desde`} label={t('params.from')}>
          <DateInput
            inputId={`${id}-desde`}
            value={fromIsoDay(draft.desde)}
            onChange={(e) => set({ desde: day(e.value as Date | null) })}
            minDate={fromIsoDay(SERIES_START) ?? undefined}
            maxDate={fromIsoDay(lastDay) ?? undefined}
            dateFormat={dateFormat}
            showIcon
            aria-describedby={error ? errId : undefined}
            invalid={!!error}
          />
        </FieldShell>
        <FieldShell id={`${id}-hasta`} label={t('params.to')}>
          <DateInput
            inputId={`${id}-hasta`}
            value={fromIsoDay(draft.hasta)}
            onChange={(e) => set({ hasta: day(e.value as Date | null) })}
            minDate={fromIsoDay(SERIES_START) ?? undefined}
            maxDate={fromIsoDay(lastDay) ?? undefined}
            dateFormat={dateFormat}
            showIcon
            aria-describedby={error ? errId : undefined}
            invalid={!!error}
          />
        </FieldShell>
        <FieldShell id={`${id}-tarifa`} label={t('params.tariff')}>
          <Dropdown
            inputId={`${id}-tarifa`}
            value={draft.tarifa}
            options={tarifas}
            optionLabel="Codigo"
            optionValue="Id"
            onChange={(e) => set({ tarifa: Number(e.value) })}
            placeholder={tarifas.length ? t('params.select') : t('params.tariffN', { n: draft.tarifa })}
            emptyMessage={t('params.noOptions')}
          />
        </FieldShell>
        <FieldShell id={`${id}-modalidad`} label={t('params.modality')} hint={t('params.modality.help')}>
          <Dropdown
            inputId={`${id}-modalidad`}
            value={draft.modalidad}
            options={modalidades}
            optionLabel="label"
            optionValue="value"
            onChange={(e) => set({ modalidad: e.value as Modalidad })}
            placeholder={t('params.select')}
            aria-describedby={`${id}-modalidad-help`}
          />
        </FieldShell>
        <FieldShell id={`${id}-fee`} label={t('params.fee')} hint={t('params.fee.help', { min: FEE_MIN, max: FEE_MAX })}>
          <InputNumber
            inputId={`${id}-fee`}
            value={draft.fee}
            onValueChange={(e) => set({ fee: e.value === null || e.value === undefined ? null : Math.min(FEE_MAX, Math.max(FEE_MIN, e.value)) })}
            min={FEE_MIN}
            max={FEE_MAX}
            minFractionDigits={0}
            maxFractionDigits={2}
            locale={intlLocale(lang)}
            placeholder={defaultFee !== null ? t('params.fee.defaultValue', { n: lang === 'en' ? String(defaultFee) : String(defaultFee).replace('.', ',') }) : t('params.fee.default')}
            aria-describedby={`${id}-fee-help`}
          />
        </FieldShell>
        <FieldShell id={`${id}-resolucion`} label={t('params.resolution')} hint={t('params.resolution.help')}>
          <Dropdown
            inputId={`${id}-resolucion`}
            value={draft.resolucion}
            options={resolutions}
            optionLabel="label"
            optionValue="value"
            onChange={(e) => set({ resolucion: e.value as Resolution })}
            // Names the dropdown's open button (PrimeReact names it by the placeholder, and this one has none).
            ariaLabel={t('params.resolution')}
            aria-describedby={error ? `${id}-resolucion-help ${errId}` : `${id}-resolucion-help`}
            invalid={!!error && draft.resolucion === 'nativa'}
          />
        </FieldShell>
        <div className="prices-params__submit">
          <Button type="submit" label={t('params.submit')} icon="pi pi-refresh" />
        </div>
      </div>
      {error && (
        <p id={errId} className="field-error p-error prices-params__error" role="alert">
          {error}
        </p>
      )}
      <div className="prices-quick" role="group" aria-label={t('params.quick')}>
        <span className="prices-quick__label" aria-hidden="true">
          {t('params.quick.label')}
        </span>
        {QUICK.map((q) => (
          <Button key={q} type="button" size="small" outlined label={t(`params.quick.${q}`)} onClick={() => quick(q)} />
        ))}
        <span className="prices-quick__note">{t('params.lastDay', { date: formatDate(lastDay) })}</span>
      </div>
    </form>
  )
}
