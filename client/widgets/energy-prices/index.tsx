import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { api, saveFile } from '../../api/client'
import { LOADING_CLEAR_DELAY, useDelayedFlag } from '../../api/use-delayed-flag'
import { reportError } from '../../api/errors'
import { useI18n, useMessages } from '../../i18n/i18n'
import { formatDate, formatNumber } from '../../ui/format'
import { PERIOD_COLORS, seriesColors } from '../shared/chart-theme'
import { ParamsForm } from './ParamsForm'
import type { Tariff } from '../../../schemas/business/utility'
import { PriceChart } from './PriceChart'
import {
  daysBetween,
  indexPeriods,
  localTime,
  readParams,
  resolutionLabel,
  resolutionQuery,
  seriesError,
  timeAxisFor,
  writeParams,
  type PriceParams,
  type Serie,
} from './prices-logic'
import { messages } from './messages'
import './energy-prices.css'
import type { IndexSeries, OmieSeries, SurplusSeries } from '../../../schemas/business/energy'
import { LoadingState } from '../../ui/states'

/** Today in Madrid, in case the last day with prices cannot be asked. */
function madridToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())
}

const PERIOD_INDEX: Record<string, number> = { P1: 0, P2: 1, P3: 2, P4: 3, P5: 4, P6: 5 }
/** A day of the series in the language's date format (dd/mm/yyyy, mm/dd/yyyy). */
const dmy = (d: string) => formatDate(d.slice(0, 10))

/**
 * Energy price history: the indexed offer's closing-price index per period, the surplus
 * compensation price and the OMIE day-ahead price, for a range, tariff, modality and fee kept
 * in the URL.
 */
export default function EnergyPricesWidget() {
  const t = useMessages(messages)
  // Failures are toasted with the endpoint catalogue's area and message for each call (spec §8).
  const last = useQuery({
    queryKey: ['energia', 'ultima-fecha'],
    queryFn: ({ signal }) => api.get<{ Fecha: string }>('/api/energia/ultima-fecha', { signal }),
    meta: { reportErrors: true },
    staleTime: 10 * 60_000,
  })
  const tarifas = useQuery({
    queryKey: ['utility', 'tarifas'],
    queryFn: ({ signal }) => api.get<Tariff[]>('/api/utility/tarifas', { signal }),
    meta: { reportErrors: true },
    staleTime: 60 * 60_000,
  })
  if (last.isPending) {
    return <LoadingState label={t('loading')} lines={5} className="card" />
  }
  const lastDay = last.data?.Fecha ?? madridToday()
  return <PricesView lastDay={lastDay} tarifas={tarifas.data ?? []} />
}

function PricesView({ lastDay, tarifas }: { lastDay: string; tarifas: Tariff[] }) {
  const [search, setSearch] = useSearchParams()
  const t = useMessages(messages)
  const { lang } = useI18n()
  const params = readParams(search, lastDay)
  const apply = (p: PriceParams) => setSearch(writeParams(p))
  const tarifa = tarifas.find((t) => t.Id === params.tarifa)
  const days = daysBetween(params.desde, params.hasta) + 1
  const [exporting, setExporting] = useState<Serie | null>(null)
  // The series last exported keeps its button busy for the slow delay after its file arrives.
  const [lastExport, setLastExport] = useState<Serie | null>(null)
  const exportBusy = useDelayedFlag(exporting !== null, LOADING_CLEAR_DELAY.slow)
  const busySerie = exportBusy ? lastExport : null

  const range = { desde: params.desde, hasta: params.hasta }
  const omieParams = { ...range, ...resolutionQuery(params.resolucion) }
  const omie = useQuery({
    queryKey: ['energia', 'omie', omieParams],
    queryFn: ({ signal }) => api.get<OmieSeries>('/api/energia/historico-cierre/omie', { params: omieParams, signal }),
    meta: { reportErrors: true },
    staleTime: 10 * 60_000,
  })
  const indexParams = { ...range, tarifa: params.tarifa, modalidad: params.modalidad, fee: params.fee }
  const index = useQuery({
    queryKey: ['energia', 'index', indexParams],
    queryFn: ({ signal }) => api.get<IndexSeries>('/api/energia/historico-cierre/index', { params: indexParams, signal }),
    meta: { reportErrors: true },
    staleTime: 10 * 60_000,
  })
  const surplusParams = { ...range, tarifa: params.tarifa }
  const excedentes = useQuery({
    queryKey: ['energia', 'excedentes', surplusParams],
    queryFn: ({ signal }) => api.get<SurplusSeries>('/api/energia/historico-cierre/excedentes', { params: surplusParams, signal }),
    meta: { reportErrors: true },
    staleTime: 10 * 60_000,
  })

  const doExport = async (serie: Serie) => {
    setLastExport(serie)
    setExporting(serie)
    try {
      // The OMIE export follows the resolution the chart shows; the other series have their own.
      const p = { ...range, tarifa: params.tarifa, modalidad: params.modalidad, fee: params.fee, serie, ...(serie === 'omie' ? resolutionQuery(params.resolucion) : {}) }
      saveFile(await api.download('/api/energia/historico-cierre/export', { params: p, fallbackName: `precios-${serie}-${params.desde}-${params.hasta}.xlsx` }))
    } catch (err) {
      reportError(undefined, err)
    } finally {
      setExporting(null)
    }
  }

  const colors = seriesColors()
  const rangeText = params.desde === params.hasta ? t('text.day', { date: dmy(params.desde) }) : t('text.range', { from: dmy(params.desde), to: dmy(params.hasta) })
  const tariffText = tarifa?.Codigo ?? t('text.tariff', { n: params.tarifa })
  const modalityText = params.modalidad === 'con_impuestos' ? t('text.withTaxes') : t('text.withoutTaxes')

  // ── closing-price index ────────────────────────────────────────────
  const indexView = useMemo(() => {
    const puntos = index.data?.Puntos ?? []
    const periods = indexPeriods(puntos)
    const datasets = [
      {
        label: t('index.mean'),
        data: puntos.map((p) => ({ x: localTime(p.Fecha), y: p.PrecioMedioKwh })),
        borderColor: colors[0],
        backgroundColor: colors[0],
        borderWidth: 3,
      },
      ...periods.map((per) => ({
        label: per,
        data: puntos.map((p) => ({ x: localTime(p.Fecha), y: p.PorPeriodo?.[per] ?? null })),
        borderColor: PERIOD_COLORS[PERIOD_INDEX[per] ?? 0],
        backgroundColor: PERIOD_COLORS[PERIOD_INDEX[per] ?? 0],
        borderWidth: 1.5,
        borderDash: [4, 3],
      })),
    ]
    const avg = puntos.length ? puntos.reduce((s, p) => s + p.PrecioMedioKwh, 0) / puntos.length : 0
    const summary = puntos.length
      ? t('index.summary', {
          tariff: tariffText,
          modality: modalityText,
          fee: formatNumber(index.data?.FeeMwh ?? 0, 2),
          range: rangeText,
          mean: formatNumber(avg, 4),
          periods: periods
            .map((per) => {
              const vals = puntos.map((p) => p.PorPeriodo?.[per]).filter((v): v is number => typeof v === 'number')
              return `${per} ${formatNumber(vals.reduce((s, v) => s + v, 0) / (vals.length || 1), 4)}`
            })
            .join(', '),
        })
      : ''
    const table = {
      columns: [t('col.date'), t('col.mean'), ...periods.map((p) => `${p} (€/kWh)`)],
      rows: puntos.map((p) => [dmy(p.Fecha), p.PrecioMedioKwh, ...periods.map((per) => p.PorPeriodo?.[per] ?? '—')]),
    }
    return { datasets, summary, table, count: puntos.length }
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- built from the answer and the range; `t` and the theme's `colors` are new each render, and texts and formats follow `lang`
  }, [index.data, rangeText, tariffText, modalityText, lang])

  // ── surplus compensation ───────────────────────────────────────────
  const surplusView = useMemo(() => {
    const puntos = excedentes.data?.Puntos ?? []
    const datasets = [
      {
        label: t('surplus.series'),
        data: puntos.map((p) => ({ x: localTime(p.Fecha), y: p.PrecioKwh })),
        borderColor: colors[2],
        backgroundColor: `${colors[2]}33`,
        fill: true,
      },
    ]
    const vals = puntos.map((p) => p.PrecioKwh)
    const summary = vals.length
      ? t('surplus.summary', {
          range: rangeText,
          mean: formatNumber(vals.reduce((s, v) => s + v, 0) / vals.length, 4),
          min: formatNumber(Math.min(...vals), 4),
          max: formatNumber(Math.max(...vals), 4),
        })
      : ''
    const table = { columns: [t('col.date'), t('col.priceKwh')], rows: puntos.map((p) => [dmy(p.Fecha), p.PrecioKwh]) }
    return { datasets, summary, table, count: puntos.length }
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- built from the answer and the range; `t` and the theme's `colors` are new each render, and texts and formats follow `lang`
  }, [excedentes.data, rangeText, lang])

  // ── OMIE ───────────────────────────────────────────────────────────
  const omieView = useMemo(() => {
    const a = omie.data
    const puntos = a?.Puntos ?? []
    const native = a?.Resolucion !== 'diaria'
    const datasets = [
      {
        label: native ? t('omie.series') : t('omie.series.daily'),
        data: puntos.map((p) => ({ x: localTime(p.Fecha), y: p.PrecioMwh })),
        borderColor: colors[1],
        backgroundColor: colors[1],
        // Each price holds from its timestamp to the next one.
        stepped: native ? ('after' as const) : false,
        borderWidth: native ? 1.5 : 2,
      },
    ]
    const r = a?.Resumen
    const summary =
      a && r
        ? t('omie.summary', {
            range: rangeText,
            resolution: resolutionLabel(a.Resolucion, lang),
            mean: formatNumber(r.MediaMwh, 2),
            min: formatNumber(r.MinimoMwh, 2),
            max: formatNumber(r.MaximoMwh, 2),
          })
        : ''
    const when = (f: string) => (f.length > 10 ? `${dmy(f)} ${f.slice(11, 16)}` : dmy(f))
    const table = { columns: [native ? t('col.dateTime') : t('col.date'), t('col.priceMwh')], rows: puntos.map((p) => [when(p.Fecha), p.PrecioMwh]) }
    return { datasets, summary, table, count: puntos.length, axis: timeAxisFor(a?.Resolucion ?? 'diaria', days, lang) }
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- built from the answer and the range; `t` and the theme's `colors` are new each render, and texts and formats follow `lang`
  }, [omie.data, rangeText, days, lang])

  const stateOf = (q: { isPending: boolean; isError: boolean; isFetching: boolean }, count: number) =>
    q.isError ? ('error' as const) : q.isPending ? ('loading' as const) : count === 0 ? ('empty' as const) : ('ready' as const)
  const dayAxis = timeAxisFor('diaria', days, lang)

  return (
    <div className="energy-prices">
      <ParamsForm key={search.toString()} params={params} lastDay={lastDay} tarifas={tarifas} defaultFee={params.fee === null ? (index.data?.FeeMwh ?? null) : null} onApply={apply} />
      <PriceChart
        title={t('index.title')}
        summary={indexView.summary}
        table={indexView.table}
        datasets={indexView.datasets}
        unit="€/kWh"
        digits={5}
        timeUnit={dayAxis.unit}
        tooltipFormat={dayAxis.tooltipFormat}
        state={stateOf(index, indexView.count)}
        errorText={seriesError('index', lang)}
        exporting={busySerie === 'index'}
        onExport={() => void doExport('index')}
        onRetry={() => void index.refetch()}
      >
        {index.data && <IndexNotes answer={index.data} />}
      </PriceChart>
      <PriceChart
        title={t('surplus.title')}
        summary={surplusView.summary}
        table={surplusView.table}
        datasets={surplusView.datasets}
        unit="€/kWh"
        digits={5}
        timeUnit={dayAxis.unit}
        tooltipFormat={dayAxis.tooltipFormat}
        state={stateOf(excedentes, surplusView.count)}
        errorText={seriesError('excedentes', lang)}
        exporting={busySerie === 'excedentes'}
        onExport={() => void doExport('excedentes')}
        onRetry={() => void excedentes.refetch()}
        legend={false}
      >
        {excedentes.data?.Formula && (
          <p className="prices-formula">
            <strong>{t('formula')}</strong> <span translate="no">{excedentes.data.Formula}</span>
          </p>
        )}
      </PriceChart>
      <PriceChart
        title={t('omie.title')}
        summary={omieView.summary}
        table={omieView.table}
        datasets={omieView.datasets}
        unit="€/MWh"
        digits={2}
        timeUnit={omieView.axis.unit}
        tooltipFormat={omieView.axis.tooltipFormat}
        state={stateOf(omie, omieView.count)}
        errorText={seriesError('omie', lang)}
        exporting={busySerie === 'omie'}
        onExport={() => void doExport('omie')}
        onRetry={() => void omie.refetch()}
        legend={false}
      >
        {omie.data && (
          <dl className="prices-stats">
            <div>
              <dt>{t('resolution')}</dt>
              <dd>{resolutionLabel(omie.data.Resolucion, lang)}</dd>
            </div>
            <div>
              <dt>{t('mean')}</dt>
              <dd>{formatNumber(omie.data.Resumen.MediaMwh, 2)} €/MWh</dd>
            </div>
            <div>
              <dt>{t('min')}</dt>
              <dd>{formatNumber(omie.data.Resumen.MinimoMwh, 2)} €/MWh</dd>
            </div>
            <div>
              <dt>{t('max')}</dt>
              <dd>{formatNumber(omie.data.Resumen.MaximoMwh, 2)} €/MWh</dd>
            </div>
          </dl>
        )}
      </PriceChart>
    </div>
  )
}

/** Rows of the coefficients table (labels: `coef.<key>` of ./messages.ts). */
const COEF_ROWS: { key: 'PeajesKwh' | 'CargosKwh' | 'PagosCapacidadKwh' | 'Perdidas'; digits: number; pct?: boolean }[] = [
  { key: 'PeajesKwh', digits: 6 },
  { key: 'CargosKwh', digits: 6 },
  { key: 'PagosCapacidadKwh', digits: 6 },
  { key: 'Perdidas', digits: 2, pct: true },
]

/** The fee applied, the formula and the tariff's coefficients the index was built with. */
function IndexNotes({ answer }: { answer: IndexSeries }) {
  const t = useMessages(messages)
  const { lang } = useI18n()
  const coef = answer.Coeficientes
  const periods = (['P1', 'P2', 'P3', 'P4', 'P5', 'P6'] as const).filter((p) => COEF_ROWS.some((r) => typeof coef?.[r.key]?.[p] === 'number'))
  return (
    <div className="prices-notes">
      <p className="prices-formula">
        <strong>{t('notes.fee')}</strong> {formatNumber(answer.FeeMwh, 2)} €/MWh. <strong>{t('formula')}</strong> <span translate="no">{answer.Formula}</span>
      </p>
      {coef && periods.length > 0 && (
        <details className="prices-coef">
          <summary>{t('notes.coef', { tariff: answer.Tarifa })}</summary>
          <table className="simple-table">
            <caption className="p-sr-only">{t('notes.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('notes.concept')}</th>
                {periods.map((p) => (
                  <th key={p} scope="col">
                    {p}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {COEF_ROWS.map((r) => (
                <tr key={r.key}>
                  <th scope="row">{t(`coef.${r.key}`)}</th>
                  {periods.map((p) => {
                    const v = coef[r.key]?.[p]
                    return <td key={p}>{typeof v === 'number' ? (r.pct ? `${formatNumber(v * 100, r.digits)}${lang === 'en' ? '%' : ' %'}` : formatNumber(v, r.digits)) : '—'}</td>
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </div>
  )
}
