import { useMutation, useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Checkbox } from 'primereact/checkbox'
import { Dropdown } from 'primereact/dropdown'
import { Message } from 'primereact/message'
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { api } from '../../api/client'
import { useDelayedFlag } from '../../api/use-delayed-flag'
import { describedBy, FieldShell } from '../shared/FieldShell'
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
  type CalculationAnswer,
  type CalculationBody,
  type InputErrors,
  type InputField,
  type SavingsPeriod,
} from './model'
import { BestCard, ResultsTable } from './ResultsView'
import './battery.css'

export const AREA = 'Baterías'

/** Order in which invalid fields get the focus. */
const FIELD_ORDER: InputField[] = ['ConsumoAnualKwh', 'ProduccionFvAnualKwh', 'AutoconsumoDirectoKwh', 'PrecioImportacionKwh', 'PrecioExcedenteKwh']

/**
 * Battery calculator (spec §7 Battery, model of domain.md): the installation's yearly figures and
 * prices → the best battery of the catalogue and the alternatives, a chart of energy flows,
 * the offer and contract PDFs and saving the calculation.
 */
export default function BatteryCalculator() {
  const [inputs, setInputs] = useState<BatteryInputs>(EMPTY_INPUTS)
  const [errors, setErrors] = useState<InputErrors>({})
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
  const busy = useDelayedFlag(calc.isPending)

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

  return (
    <div className="battery">
      <form className="card screen-form battery__form" onSubmit={submit} noValidate aria-labelledby="bat-form-title">
        <h2 id="bat-form-title" className="screen-form__title">
          Datos de la instalación
        </h2>
        <p className="battery__intro">
          Con el consumo y la producción de un año calculamos cuánta energía solar guardaría cada batería del catálogo, cuánto se ahorraría y en cuántos años se
          recuperaría la inversión.
        </p>
        <div className="battery__grid">
          <NumberField
            id="bat-ConsumoAnualKwh"
            label="Consumo anual (kWh)"
            required
            value={inputs.ConsumoAnualKwh}
            onChange={(v) => set('ConsumoAnualKwh', v)}
            error={errors.ConsumoAnualKwh}
            hint="Toda la electricidad que se usa en un año: la suma de las facturas de los últimos 12 meses."
          />
          <NumberField
            id="bat-ProduccionFvAnualKwh"
            label="Producción fotovoltaica anual (kWh)"
            required
            value={inputs.ProduccionFvAnualKwh}
            onChange={(v) => set('ProduccionFvAnualKwh', v)}
            error={errors.ProduccionFvAnualKwh}
            hint="Lo que generan las placas solares en un año; aparece en la aplicación del inversor o en el estudio de la instalación."
          />
          <NumberField
            id="bat-AutoconsumoDirectoKwh"
            label="Autoconsumo directo (kWh)"
            required
            value={inputs.AutoconsumoDirectoKwh}
            onChange={(v) => set('AutoconsumoDirectoKwh', v)}
            error={errors.AutoconsumoDirectoKwh}
            hint="La parte de esa producción que se gasta en el momento, sin pasar por la red. No puede superar la producción ni el consumo; sin dato, suele rondar un tercio de la producción."
          />
        </div>

        <fieldset className="battery__prices">
          <legend>Precios</legend>
          <div className="battery__grid">
            <FieldShell
              id="bat-FechasAhorroId"
              label="Periodo de ahorro"
              hint={
                period
                  ? `Precios medios del periodo, sin impuestos: compra ${formatPrice(period.PrecioImportacionMedioKwh)}, excedente ${formatPrice(period.PrecioExcedenteMedioKwh)}. Se copian abajo (con impuestos si marcas la casilla); puedes cambiarlos.`
                  : 'Opcional: elige un periodo para usar sus precios medios (calculados con los precios del mercado, OMIE).'
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
                placeholder={periods.isError ? 'No disponible' : 'Sin periodo (precios a mano)'}
                emptyMessage="Sin periodos"
              />
            </FieldShell>
            <NumberField
              id="bat-PrecioImportacionKwh"
              label="Precio de la energía comprada (€/kWh)"
              required={!period}
              value={inputs.PrecioImportacionKwh}
              onChange={(v) => set('PrecioImportacionKwh', v)}
              error={errors.PrecioImportacionKwh}
              maxFractionDigits={4}
              placeholder="p. ej. 0,16"
              hint="Lo que se paga por cada kWh que llega de la red (término de energía de la factura)."
            />
            <NumberField
              id="bat-PrecioExcedenteKwh"
              label="Precio del excedente (€/kWh)"
              required={!period}
              value={inputs.PrecioExcedenteKwh}
              onChange={(v) => set('PrecioExcedenteKwh', v)}
              error={errors.PrecioExcedenteKwh}
              maxFractionDigits={4}
              placeholder="p. ej. 0,06"
              hint="Lo que se compensa por cada kWh vertido a la red. Si la compensación ya llega a su tope cada mes, pon 0."
            />
          </div>
          <div className="screen-form__field screen-form__field--check battery__taxes">
            <Checkbox
              inputId="bat-PreciosConImpuestos"
              checked={inputs.PreciosConImpuestos}
              onChange={(e) => setTaxes(e.checked === true)}
              aria-describedby={describedBy('bat-PreciosConImpuestos', true, null)}
            />
            <label htmlFor="bat-PreciosConImpuestos" className="screen-form__label">
              Los precios incluyen impuestos
            </label>
          </div>
          <small id="bat-PreciosConImpuestos-help" className="field-help">
            Si no los incluyen, al ahorro se le suman el impuesto eléctrico (5,11 %) y el IVA (21 %).
          </small>
        </fieldset>

        <div className="action-bar battery__submit">
          <Button type="submit" label="Calcular" icon="pi pi-calculator" loading={busy} disabled={calc.isPending} />
          {calculated && stale && (
            <span className="battery__stale" role="status">
              <i className="pi pi-info-circle" aria-hidden="true" /> Los datos han cambiado desde el último cálculo: pulsa «Calcular» para actualizar los resultados.
            </span>
          )}
        </div>
      </form>

      {calculated && (
        <section className="battery__results" aria-labelledby="bat-results-title">
          <h2 id="bat-results-title" ref={resultsHeading} tabIndex={-1} className="battery__results-title">
            Resultados
          </h2>
          {results.length === 0 ? (
            <Message severity="warn" text="Ninguna batería del catálogo encaja con estos datos." />
          ) : (
            <>
              {calculated.answer.Mejor && <BestCard result={calculated.answer.Mejor} />}
              <ResultsTable results={results} bestId={calculated.answer.Mejor?.Bateria.Id ?? null} chosenId={chosen?.Bateria.Id ?? null} onChoose={setChosenId} />
              {chosen && <FlowsChart body={calculated.body} result={chosen} />}
              <p className="battery__note">
                Cálculo anual simplificado: la batería se carga con el excedente solar y devuelve esa energía, descontada su eficiencia, en lugar de comprarla a
                la red. Ahorro = energía entregada × precio de compra − energía cargada × precio del excedente. El ahorro neto a 10 años descuenta el precio de
                la batería.
              </p>
              {chosen && <DocumentsPanel body={calculated.body} result={chosen} />}
            </>
          )}
        </section>
      )}
    </div>
  )
}

