import { Button } from 'primereact/button'
import { Calendar } from 'primereact/calendar'
import { Dropdown } from 'primereact/dropdown'
import { InputNumber } from 'primereact/inputnumber'
import { useId, useState, type FormEvent } from 'react'
import { FEE_MAX, FEE_MIN, quickRange, rangeError, SERIES_START, type Modalidad, type PriceParams } from './prices-logic'

export interface Tarifa {
  Id: number
  Codigo: string
  Nombre: string
  PeriodosEnergia: number
  PeriodosPotencia: number
}

const toDate = (day: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  return new Date(y, m - 1, d)
}
const fromDate = (date: Date | null | undefined) =>
  date ? `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}` : ''

const MODALIDADES: { value: Modalidad; label: string }[] = [
  { value: 'sin_impuestos', label: 'Sin impuestos' },
  { value: 'con_impuestos', label: 'Con impuestos' },
]

const QUICK: { key: Parameters<typeof quickRange>[0]; label: string }[] = [
  { key: 'dia', label: 'Último día' },
  { key: '7d', label: '7 días' },
  { key: '30d', label: '30 días' },
  { key: '12m', label: '12 meses' },
  { key: 'anio', label: 'Este año' },
]

/** Range, tariff, modality and fee; applied together (and kept in the URL) with "Ver precios". */
export function ParamsForm({ params, lastDay, tarifas, defaultFee, onApply }: { params: PriceParams; lastDay: string; tarifas: Tarifa[]; defaultFee: number | null; onApply: (p: PriceParams) => void }) {
  const id = useId()
  const [draft, setDraft] = useState(params)
  const [error, setError] = useState<string | null>(null)
  const set = (patch: Partial<PriceParams>) => setDraft((d) => ({ ...d, ...patch }))

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const problem = rangeError(draft.desde, draft.hasta, lastDay)
    setError(problem)
    if (!problem) onApply(draft)
  }
  const quick = (key: Parameters<typeof quickRange>[0]) => {
    const r = quickRange(key, lastDay)
    setError(null)
    onApply({ ...draft, ...r })
  }

  const errId = `${id}-err`
  return (
    <form className="card prices-params" onSubmit={submit} aria-label="Parámetros del histórico">
      <div className="prices-params__fields">
        <div className="screen-form__field">
          <label className="screen-form__label" htmlFor={`${id}-desde`}>
            Desde
          </label>
          <Calendar
            inputId={`${id}-desde`}
            value={draft.desde ? toDate(draft.desde) : null}
            onChange={(e) => set({ desde: fromDate(e.value as Date | null) })}
            minDate={toDate(SERIES_START)}
            maxDate={toDate(lastDay)}
            dateFormat="dd/mm/yy"
            showIcon
            aria-describedby={error ? errId : undefined}
            invalid={!!error}
          />
        </div>
        <div className="screen-form__field">
          <label className="screen-form__label" htmlFor={`${id}-hasta`}>
            Hasta
          </label>
          <Calendar
            inputId={`${id}-hasta`}
            value={draft.hasta ? toDate(draft.hasta) : null}
            onChange={(e) => set({ hasta: fromDate(e.value as Date | null) })}
            minDate={toDate(SERIES_START)}
            maxDate={toDate(lastDay)}
            dateFormat="dd/mm/yy"
            showIcon
            aria-describedby={error ? errId : undefined}
            invalid={!!error}
          />
        </div>
        <div className="screen-form__field">
          <label className="screen-form__label" htmlFor={`${id}-tarifa`}>
            Tarifa
          </label>
          <Dropdown
            inputId={`${id}-tarifa`}
            value={draft.tarifa}
            options={tarifas}
            optionLabel="Codigo"
            optionValue="Id"
            onChange={(e) => set({ tarifa: Number(e.value) })}
            placeholder={tarifas.length ? 'Selecciona…' : `Tarifa ${draft.tarifa}`}
            emptyMessage="Sin opciones"
          />
        </div>
        <div className="screen-form__field">
          <label className="screen-form__label" htmlFor={`${id}-modalidad`}>
            Modalidad
          </label>
          <Dropdown
            inputId={`${id}-modalidad`}
            value={draft.modalidad}
            options={MODALIDADES}
            optionLabel="label"
            optionValue="value"
            onChange={(e) => set({ modalidad: e.value as Modalidad })}
            placeholder="Selecciona…"
            aria-describedby={`${id}-modalidad-help`}
          />
          <small id={`${id}-modalidad-help`} className="field-help">
            Con impuestos: impuesto eléctrico (5,11 %) e IVA (21 %).
          </small>
        </div>
        <div className="screen-form__field">
          <label className="screen-form__label" htmlFor={`${id}-fee`}>
            Fee (€/MWh)
          </label>
          <InputNumber
            inputId={`${id}-fee`}
            value={draft.fee}
            onValueChange={(e) => set({ fee: e.value === null || e.value === undefined ? null : Math.min(FEE_MAX, Math.max(FEE_MIN, e.value)) })}
            min={FEE_MIN}
            max={FEE_MAX}
            minFractionDigits={0}
            maxFractionDigits={2}
            locale="es-ES"
            placeholder={defaultFee !== null ? `Por defecto (${String(defaultFee).replace('.', ',')})` : 'Por defecto'}
            aria-describedby={`${id}-fee-help`}
          />
          <small id={`${id}-fee-help`} className="field-help">
            Entre {FEE_MIN} y {FEE_MAX} €/MWh, sumado al precio de mercado. Vacío: el de la oferta.
          </small>
        </div>
        <div className="prices-params__submit">
          <Button type="submit" label="Ver precios" icon="pi pi-refresh" />
        </div>
      </div>
      {error && (
        <p id={errId} className="field-error p-error prices-params__error" role="alert">
          {error}
        </p>
      )}
      <div className="prices-quick" role="group" aria-label="Intervalos rápidos">
        <span className="prices-quick__label" aria-hidden="true">
          Intervalo:
        </span>
        {QUICK.map((q) => (
          <Button key={q.key} type="button" size="small" outlined label={q.label} onClick={() => quick(q.key)} />
        ))}
        <span className="prices-quick__note">Precios hasta el {lastDay.split('-').reverse().join('/')}.</span>
      </div>
    </form>
  )
}
