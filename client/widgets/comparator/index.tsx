import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Dropdown } from 'primereact/dropdown'
import { InputNumber } from 'primereact/inputnumber'
import { InputText } from 'primereact/inputtext'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useSearchParams } from 'react-router-dom'
import { api } from '../../api/client'
import { notifySuccess } from '../../api/toast'
import { messageIn, useI18n, useMessages } from '../../i18n/i18n'
import { nodeKey } from '../../api/query-keys'
import { describedBy } from '../../ui/described-by'
import { FieldShell } from '../../ui/FieldShell'
import { intlLocale } from '../../ui/format'
import { ComparisonResult } from './ComparisonResult'
import {
  area,
  buildBody,
  emptyForm,
  exampleValues,
  periodsFor,
  readSaved,
  validate,
  type FormValues,
  type Tarifa,
} from './comparator-logic'
import type { PorPeriodo } from '../../../schemas/business/common'
import type { Period } from '../../../schemas/business/periods'
import type { ComparisonAnswer } from '../../../schemas/business/comparator'
import { messages } from './messages'
import './comparator.css'

type PeriodField = 'PotenciasKw' | 'ConsumoAnualKwh' | 'EnergiaKwh' | 'PotenciaKwDia'

/** The per-period rows of the form (legends `row.<field>`, helps `row.<field>.help` of ./messages.ts). */
const ROWS: { field: PeriodField; unit: string; digits: number; kind: 'potencia' | 'energia'; help?: 'row.ConsumoAnualKwh.help' | 'row.EnergiaKwh.help' }[] = [
  { field: 'PotenciasKw', unit: 'kW', digits: 3, kind: 'potencia' },
  { field: 'ConsumoAnualKwh', unit: 'kWh', digits: 0, kind: 'energia', help: 'row.ConsumoAnualKwh.help' },
  { field: 'EnergiaKwh', unit: '€/kWh', digits: 6, kind: 'energia', help: 'row.EnergiaKwh.help' },
  { field: 'PotenciaKwDia', unit: '€/kW día', digits: 6, kind: 'potencia' },
]

/**
 * The comparison tool (BETA; a local page in development): the client's current bill against the
 * reseller's fixed and indexed offers, saved on demand. `?id=` reopens a saved comparison.
 */
export default function ComparatorWidget() {
  const id = useId()
  const t = useMessages(messages)
  const { lang } = useI18n()
  const [search, setSearch] = useSearchParams()
  const savedId = Number(search.get('id'))
  const [values, setValues] = useState<FormValues>(emptyForm)
  const [errors, setErrors] = useState<Record<string, string>>({})
  // What was last checked: a flagged field's message is worded from it at each render, so it follows a language switch.
  const [checked, setChecked] = useState<{ values: FormValues; tarifa: Tarifa | undefined }>({ values: emptyForm(), tarifa: undefined })
  const [result, setResult] = useState<ComparisonAnswer | null>(null)
  const [savedAs, setSavedAs] = useState<number | null>(null)
  const resultRef = useRef<HTMLElement>(null)
  const queryClient = useQueryClient()

  const tarifas = useQuery({
    queryKey: ['utility', 'tarifas'],
    queryFn: ({ signal }) => api.get<Tarifa[]>('/api/utility/tarifas', { signal }),
    // Titled by the comparator, not the catalogue's price history; the message is the catalogue's.
    meta: { errorArea: area(lang) },
    staleTime: 60 * 60_000,
  })
  const saved = useQuery({
    queryKey: ['comparador', 'comparativa', savedId],
    queryFn: ({ signal }) => api.get<unknown>(`/api/comparador/comparativas/${savedId}`, { signal }),
    enabled: Number.isInteger(savedId) && savedId > 0,
    meta: { reportErrors: true },
  })
  useEffect(() => {
    if (!saved.data) return
    const s = readSaved(saved.data)
    setValues(s.values)
    setResult(s.result)
    setSavedAs(s.id)
    setErrors({})
  }, [saved.data])

  const tarifa = tarifas.data?.find((x) => x.Id === values.TarifaId)
  const { energia, potencia } = periodsFor(tarifa)

  const compare = useMutation({
    mutationFn: (guardar: boolean) => api.post<ComparisonAnswer>('/api/comparador/comparativa', buildBody(values, tarifa, guardar)),
    meta: { reportErrors: true },
  })

  const change = (patch: Partial<FormValues>) => {
    setValues((v) => ({ ...v, ...patch }))
    // A result no longer matches what the form says once the form changes.
    setResult(null)
    setSavedAs(null)
  }
  const setPeriod = (field: PeriodField, p: Period, v: number | null) => {
    // InputNumber also reports values set from outside (a saved comparison loading): not a change.
    if ((values[field] as PorPeriodo)[p] === v) return
    change({ [field]: { ...values[field], [p]: v } } as Partial<FormValues>)
    setErrors((e) => {
      const { [`${field}.${p}`]: _gone, ...rest } = e
      return rest
    })
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const problems = validate(values, tarifa)
    setErrors(problems)
    setChecked({ values, tarifa })
    const first = Object.keys(problems)[0]
    if (first) {
      document.getElementById(`${id}-${first.replace('.', '-')}`)?.focus()
      return
    }
    const answer = await compare.mutateAsync(false).catch(() => null)
    if (!answer) return
    setResult(answer)
    setSavedAs(null)
    if (search.get('id')) {
      const next = new URLSearchParams(search)
      next.delete('id')
      setSearch(next, { replace: true })
    }
    requestAnimationFrame(() => resultRef.current?.focus())
  }

  const save = async () => {
    const answer = await compare.mutateAsync(true).catch(() => null)
    if (!answer) return
    setResult(answer)
    setSavedAs(answer.Id)
    notifySuccess(area(), messageIn(messages, 'saved'))
    // The saved list (the listado screen's table `comparativas`) must show it next time.
    void queryClient.invalidateQueries({ queryKey: nodeKey('comparativas') })
  }

  const fieldId = (name: string) => `${id}-${name.replace('.', '-')}`
  const worded = validate(checked.values, checked.tarifa)
  const errorOf = (name: string) => (errors[name] ? (worded[name] ?? errors[name]) : undefined)

  return (
    <div className="comparator">
      <form className="card comparator-form" onSubmit={(e) => void submit(e)} noValidate aria-label={t('form.label')}>
        <div className="comparator-form__head">
          <h2 className="screen-form__title">{t('form.title')}</h2>
          <Button type="button" size="small" text icon="pi pi-bolt" label={t('example')} onClick={() => change(exampleValues(tarifa))} />
        </div>
        <div className="comparator-form__top">
          <FieldShell id={fieldId('Nombre')} label={t('name')}>
            <InputText id={fieldId('Nombre')} value={values.Nombre} maxLength={120} onChange={(e) => change({ Nombre: e.target.value })} placeholder={t('optional')} />
          </FieldShell>
          <FieldShell id={fieldId('Cliente')} label={t('client')}>
            <InputText id={fieldId('Cliente')} value={values.Cliente} maxLength={150} onChange={(e) => change({ Cliente: e.target.value })} placeholder={t('optional')} />
          </FieldShell>
          <FieldShell id={fieldId('TarifaId')} label={t('tariff')} required error={errorOf('TarifaId')}>
            <Dropdown
              inputId={fieldId('TarifaId')}
              value={values.TarifaId}
              options={tarifas.data ?? []}
              optionLabel="Nombre"
              // The tariffs are data: their names stay as the API gives them.
              translate="no"
              optionValue="Id"
              onChange={(e) => change({ TarifaId: Number(e.value) })}
              loading={tarifas.isPending}
              placeholder={t('select')}
              aria-required
              aria-describedby={describedBy(fieldId('TarifaId'), null, errors.TarifaId)}
              invalid={!!errors.TarifaId}
            />
          </FieldShell>
        </div>
        {ROWS.map((row) => {
          const periods = row.kind === 'energia' ? energia : potencia
          const helpId = row.help ? `${id}-${row.field}-help` : undefined
          return (
            <fieldset key={row.field} className="comparator-periods" aria-describedby={helpId}>
              <legend className="screen-form__label">
                {t(`row.${row.field}`)} <span className="required-mark" aria-hidden="true">*</span>
              </legend>
              {row.help && (
                <p id={helpId} className="field-help comparator-periods__help">
                  {t(row.help)}
                </p>
              )}
              <div className="comparator-periods__inputs">
                {periods.map((p) => {
                  const name = `${row.field}.${p}`
                  return (
                    <FieldShell key={p} id={fieldId(name)} label={p} className="comparator-periods__field" error={errorOf(name)}>
                      <InputNumber
                        inputId={fieldId(name)}
                        value={(values[row.field] as PorPeriodo)[p]}
                        onValueChange={(e) => setPeriod(row.field, p, e.value ?? null)}
                        locale={intlLocale(lang)}
                        min={0}
                        minFractionDigits={0}
                        maxFractionDigits={row.digits}
                        aria-required
                        aria-invalid={!!errors[name] || undefined}
                        aria-describedby={describedBy(fieldId(name), null, errors[name])}
                        invalid={!!errors[name]}
                        suffix={row.unit === 'kWh' ? ' kWh' : undefined}
                      />
                    </FieldShell>
                  )
                })}
              </div>
            </fieldset>
          )
        })}
        <div className="comparator-form__actions">
          <Button type="submit" label={t('compare')} icon="pi pi-calculator" loading={compare.isPending && compare.variables === false} />
        </div>
      </form>
      {saved.isFetching && !result && (
        <p className="comparator-muted" aria-busy="true">
          <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {t('loadingSaved')}
        </p>
      )}
      {result && (
        <ComparisonResult
          ref={resultRef}
          result={result}
          tarifa={tarifa}
          values={values}
          savedAs={savedAs}
          saving={compare.isPending && compare.variables === true}
          onSave={() => void save()}
        />
      )}
    </div>
  )
}
