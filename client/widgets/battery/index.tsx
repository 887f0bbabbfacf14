import { useMutation, useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Checkbox } from 'primereact/checkbox'
import { Dropdown } from 'primereact/dropdown'
import { Message } from 'primereact/message'
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { api } from '../../api/client'
import { LOADING_CLEAR_DELAY, useDelayedFlag } from '../../api/use-delayed-flag'
import { useMessages } from '../../i18n/i18n'
import { describedBy } from '../../ui/described-by'
import { FieldShell } from '../../ui/FieldShell'
import { NumberField } from './fields'
import { FlowsChart } from './FlowsChart'
import { DocumentsPanel } from './DocumentsPanel'
import {
  allResults,
  buildCalculationBody,
  EMPTY_INPUTS,
  formatPrice,
  inputsChanged,
  periodLabel,
  periodPrices,
  validateInputs,
  type BatteryInputs,
  type InputErrors,
  type InputField,
} from './model'
import { messages } from './messages'
import { BestCard, ResultsTable } from './ResultsView'
import './battery.css'
import type { CalculationAnswer, CalculationBody, SavingsPeriod } from '../../../schemas/business/battery'

/** Order in which invalid fields get the focus. */
const FIELD_ORDER: InputField[] = ['ConsumoAnualKwh', 'ProduccionFvAnualKwh', 'AutoconsumoDirectoKwh', 'PrecioImportacionKwh', 'PrecioExcedenteKwh']

/**
 * Battery calculator (spec §7 Battery, model of domain.md): the installation's yearly figures and
 * prices → the best battery of the catalogue and the alternatives, a chart of energy flows,
 * the offer and contract PDFs and saving the calculation.
 */
export default function BatteryCalculator() {
  const t = useMessages(messages)
  const [inputs, setInputs] = useState<BatteryInputs>(EMPTY_INPUTS)
  const [errors, setErrors] = useState<InputErrors>({})
  // The inputs last checked: a flagged field's message is worded from them at each render, so it follows a language switch.
  const [checked, setChecked] = useState<BatteryInputs>(EMPTY_INPUTS)
  const [calculated, setCalculated] = useState<{ body: CalculationBody; answer: CalculationAnswer } | null>(null)
  const [chosenId, setChosenId] = useState<number | null>(null)
  // The prices came from the chosen period and were not touched since: the tax box converts them.
  const [pricesFromPeriod, setPricesFromPeriod] = useState(false)
  const resultsHeading = useRef<HTMLHeadingElement>(null)

  const periods = useQuery({
    queryKey: ['bateria', 'fechas-ahorro'],
    queryFn: () => api.get<SavingsPeriod[]>('/api/bateria/FechasAhorro'),
    staleTime: 10 * 60_000,
    // Titled and worded by the endpoint catalogue (spec §8).
    meta: { reportErrors: true },
  })
  const period = periods.data?.find((p) => p.Id === inputs.FechasAhorroId) ?? null

  const calc = useMutation({
    mutationFn: (body: CalculationBody) => api.post<CalculationAnswer>('/api/bateria/calculadora', body),
    meta: { reportErrors: true },
    onSuccess: (answer, body) => {
      setCalculated({ body, answer })
      setChosenId(answer.Mejor?.Bateria.Id ?? answer.Alternativas[0]?.Bateria.Id ?? null)
    },
  })
  // A year of hourly consumption simulated per battery: one of spec §9's slow calls.
  const busy = useDelayedFlag(calc.isPending, LOADING_CLEAR_DELAY.slow)

  // The results heading takes the focus once they arrive, so keyboard and screen-reader users land on them.
  useEffect(() => {
    if (calculated) resultsHeading.current?.focus()
  }, [calculated])

  const set = <K extends InputField>(field: K, value: BatteryInputs[K]) => {
    setInputs((prev) => ({ ...prev, [field]: value }))
    if (errors[field]) setErrors((prev) => ({ ...prev, [field]: undefined }))
    if (field === 'PrecioImportacionKwh' || field === 'PrecioExcedenteKwh') setPricesFromPeriod(false)
  }

  const choosePeriod = (id: number | null) => {
    const p = periods.data?.find((x) => x.Id === id)
    // A period fills the prices with its averages; the user may still change them.
    setInputs((prev) => ({ ...prev, FechasAhorroId: id, ...(p ? periodPrices(p, prev.PreciosConImpuestos) : {}) }))
    setPricesFromPeriod(!!p)
    setErrors((prev) => ({ ...prev, PrecioImportacionKwh: undefined, PrecioExcedenteKwh: undefined }))
  }

  const setTaxes = (withTaxes: boolean) => {
    setInputs((prev) => ({ ...prev, PreciosConImpuestos: withTaxes, ...(pricesFromPeriod && period ? periodPrices(period, withTaxes) : {}) }))
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const found = validateInputs(inputs)
    setErrors(found)
    setChecked(inputs)
    const first = FIELD_ORDER.find((f) => found[f])
    if (first) {
      document.getElementById(`bat-${first}`)?.focus()
      return
    }
    calc.mutate(buildCalculationBody(inputs))
  }

  const results = useMemo(() => allResults(calculated?.answer), [calculated])
  const chosen = results.find((r) => r.Bateria.Id === chosenId) ?? results[0] ?? null
  const stale = inputsChanged(inputs, calculated?.body ?? null)
  const worded = validateInputs(checked)
  const errorOf = (field: InputField) => (errors[field] ? worded[field] : undefined)

  return (
    <div className="battery">
      <form className="card screen-form battery__form" onSubmit={submit} noValidate aria-labelledby="bat-form-title">
        <h2 id="bat-form-title" className="screen-form__title">
          {t('form.title')}
        </h2>
        <p className="battery__intro">{t('form.intro')}</p>
        <div className="battery__grid">
          <NumberField
            id="bat-ConsumoAnualKwh"
            label={t('field.consumption')}
            required
            value={inputs.ConsumoAnualKwh}
            onChange={(v) => set('ConsumoAnualKwh', v)}
            error={errorOf('ConsumoAnualKwh')}
            hint={t('field.consumption.hint')}
          />
          <NumberField
            id="bat-ProduccionFvAnualKwh"
            label={t('field.production')}
            required
            value={inputs.ProduccionFvAnualKwh}
            onChange={(v) => set('ProduccionFvAnualKwh', v)}
            error={errorOf('ProduccionFvAnualKwh')}
            hint={t('field.production.hint')}
          />
          <NumberField
            id="bat-AutoconsumoDirectoKwh"
            label={t('field.selfConsumption')}
            required
            value={inputs.AutoconsumoDirectoKwh}
            onChange={(v) => set('AutoconsumoDirectoKwh', v)}
            error={errorOf('AutoconsumoDirectoKwh')}
            hint={t('field.selfConsumption.hint')}
          />
        </div>

        <fieldset className="battery__prices">
          <legend>{t('prices')}</legend>
          <div className="battery__grid">
            <FieldShell
              id="bat-FechasAhorroId"
              label={t('field.period')}
              hint={
                period
                  ? t('field.period.hint.chosen', { import: formatPrice(period.PrecioImportacionMedioKwh), surplus: formatPrice(period.PrecioExcedenteMedioKwh) })
                  : t('field.period.hint')
              }
            >
              <Dropdown
                inputId="bat-FechasAhorroId"
                aria-describedby="bat-FechasAhorroId-help"
                value={inputs.FechasAhorroId}
                options={(periods.data ?? []).map((p) => ({ value: p.Id, label: periodLabel(p) }))}
                optionLabel="label"
                optionValue="value"
                onChange={(e) => choosePeriod(typeof e.value === 'number' ? e.value : null)}
                showClear
                loading={periods.isPending}
                placeholder={periods.isError ? t('field.period.unavailable') : t('field.period.none')}
                emptyMessage={t('field.period.empty')}
              />
            </FieldShell>
            <NumberField
              id="bat-PrecioImportacionKwh"
              label={t('field.importPrice')}
              required={!period}
              value={inputs.PrecioImportacionKwh}
              onChange={(v) => set('PrecioImportacionKwh', v)}
              error={errorOf('PrecioImportacionKwh')}
              maxFractionDigits={4}
              placeholder={t('field.importPrice.placeholder')}
              hint={t('field.importPrice.hint')}
            />
            <NumberField
              id="bat-PrecioExcedenteKwh"
              label={t('field.surplusPrice')}
              required={!period}
              value={inputs.PrecioExcedenteKwh}
              onChange={(v) => set('PrecioExcedenteKwh', v)}
              error={errorOf('PrecioExcedenteKwh')}
              maxFractionDigits={4}
              placeholder={t('field.surplusPrice.placeholder')}
              hint={t('field.surplusPrice.hint')}
            />
          </div>
          <FieldShell id="bat-PreciosConImpuestos" label={t('field.taxes')} check className="battery__taxes">
            <Checkbox
              inputId="bat-PreciosConImpuestos"
              checked={inputs.PreciosConImpuestos}
              onChange={(e) => setTaxes(e.checked === true)}
              aria-describedby={describedBy('bat-PreciosConImpuestos', true, null)}
            />
          </FieldShell>
          {/* Under the row, not in it: a checkbox's row keeps box and label on one line. */}
          <small id="bat-PreciosConImpuestos-help" className="field-help">
            {t('field.taxes.hint')}
          </small>
        </fieldset>

        <div className="action-bar battery__submit">
          <Button type="submit" label={t('calculate')} icon="pi pi-calculator" loading={busy} disabled={calc.isPending} />
          {calculated && stale && (
            <span className="battery__stale" role="status">
              <i className="pi pi-info-circle" aria-hidden="true" /> {t('stale')}
            </span>
          )}
        </div>
      </form>

      {calculated && (
        <section className="battery__results" aria-labelledby="bat-results-title">
          <h2 id="bat-results-title" ref={resultsHeading} tabIndex={-1} className="battery__results-title">
            {t('results')}
          </h2>
          {results.length === 0 ? (
            <Message severity="warn" text={t('results.none')} />
          ) : (
            <>
              {calculated.answer.Mejor && <BestCard result={calculated.answer.Mejor} />}
              <ResultsTable results={results} bestId={calculated.answer.Mejor?.Bateria.Id ?? null} chosenId={chosen?.Bateria.Id ?? null} onChoose={setChosenId} />
              {chosen && <FlowsChart body={calculated.body} result={chosen} />}
              <p className="battery__note">{t('results.note')}</p>
              {chosen && <DocumentsPanel body={calculated.body} result={chosen} />}
            </>
          )}
        </section>
      )}
    </div>
  )
}

