import type { UseQueryResult } from '@tanstack/react-query'
import type { Chart as ChartJS } from 'chart.js'
import { Button } from 'primereact/button'
import { useMemo, useRef } from 'react'
import { Bar } from '../shared/charts'
import { useTheme } from '../../ui/theme'
import { useI18n, useMessages } from '../../i18n/i18n'
import { formatValue, formatNumber } from '../../ui/format'
import { ChartFrame } from '../shared/ChartFrame'
import { baseOptions, PERIOD_COLORS } from '../shared/chart-theme'
import { ZOOM_OPTIONS } from '../shared/charts-zoom'
import { messages } from './messages'
import { maxOf, monthlySeries, periodsOf, PERIODS, sumOf } from './sips-logic'
import type { SipsConsumption } from '../../../schemas/business/sips'

/** The consumption history: monthly kWh per period (stacked bars, zoomable) and the readings table. */
export function ConsumptionView({ query }: { query: UseQueryResult<SipsConsumption> }) {
  const { dark } = useTheme()
  const { lang } = useI18n()
  const t = useMessages(messages)
  const chartRef = useRef<ChartJS<'bar'>>(null)
  const lecturas = useMemo(() => query.data?.Lecturas ?? [], [query.data])
  // oxlint-disable-next-line react-hooks/exhaustive-deps -- the month labels are written in the interface's language, which `lang` stands for
  const series = useMemo(() => monthlySeries(lecturas), [lecturas, lang])
  const data = useMemo(
    () => ({
      labels: series.labels,
      datasets: series.periods.map((p) => ({
        label: p,
        data: series.data[p],
        backgroundColor: PERIOD_COLORS[PERIODS.indexOf(p)],
        stack: 'kwh',
      })),
    }),
    [series],
  )
  const options = useMemo(() => {
    const base = baseOptions()
    return {
      ...base,
      plugins: {
        ...base.plugins,
        zoom: ZOOM_OPTIONS,
        tooltip: {
          ...base.plugins.tooltip,
          callbacks: {
            label: (ctx: { dataset: { label?: string }; parsed: { y: number | null } }) => `${ctx.dataset.label}: ${formatNumber(ctx.parsed.y ?? 0, 0)} kWh`,
            footer: (items: { dataIndex: number }[]) => t('consumption.tooltipTotal', { kwh: formatNumber(series.totals[items[0]?.dataIndex ?? 0] ?? 0, 0) }),
          },
        },
      },
      scales: {
        x: { ...base.scales.x, stacked: true },
        y: { ...base.scales.y, stacked: true, title: { display: true, text: 'kWh', color: base.scales.y.ticks.color } },
      },
    }
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- chart colours are read from the theme's CSS variables and texts in the interface's language, which `dark` and `lang` stand for (`t` is new each render)
  }, [series, dark, lang])

  if (query.isPending) {
    return (
      <section className="card sips-consumption" aria-busy="true">
        <h3 className="chart-frame__title">{t('consumption.title')}</h3>
        <p className="sips-muted">{t('consumption.loading')}</p>
      </section>
    )
  }
  if (query.isError) {
    return (
      <section className="card sips-consumption">
        <h3 className="chart-frame__title">{t('consumption.title')}</h3>
        <p className="sips-muted">{t('consumption.error')}</p>
      </section>
    )
  }
  const total = series.totals.reduce((s, v) => s + v, 0)
  const first = lecturas[0]
  const last = lecturas[lecturas.length - 1]
  const summary =
    lecturas.length > 0
      ? t('consumption.summary', {
          from: series.labels[0] ?? '',
          to: series.labels[series.labels.length - 1] ?? '',
          periods: series.periods.join(', '),
          total: formatNumber(total, 0),
          months: lecturas.length,
          peak: series.labels[series.totals.indexOf(Math.max(...series.totals))] ?? '',
          peakKwh: formatNumber(Math.max(...series.totals), 0),
        })
      : t('consumption.none')
  const table = {
    columns: [t('consumption.col.month'), ...series.periods.map((p) => `${p} (kWh)`), t('consumption.col.total')],
    rows: series.labels.map((label, i) => [label, ...series.periods.map((p) => series.data[p][i] ?? 0), series.totals[i] ?? 0]),
  }
  const reactive = periodsOf(lecturas, 'ReactivaKvarh')
  return (
    <section className="card sips-consumption" aria-label={t('consumption.region')}>
      <ChartFrame
        title={t('consumption.title')}
        summary={summary}
        table={table}
        height={320}
        actions={<Button type="button" size="small" text icon="pi pi-search-minus" label={t('consumption.resetZoom')} onClick={() => chartRef.current?.resetZoom()} />}
      >
        <Bar ref={chartRef} data={data} options={options} aria-hidden="true" />
      </ChartFrame>
      <p className="sips-muted sips-consumption__hint">{t('consumption.zoomHint')}</p>
      {first && last && (
        <details className="sips-readings">
          <summary>{t('readings.summary', { n: lecturas.length, from: formatValue(first.FechaInicio, 'date'), to: formatValue(last.FechaFin, 'date') })}</summary>
          <div className="sips-readings__scroll" tabIndex={0} role="region" aria-label={t('readings.region')}>
            <table className="simple-table sips-readings__table">
              <caption className="p-sr-only">{t('readings.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('readings.col.period')}</th>
                  <th scope="col">{t('readings.col.tariff')}</th>
                  {series.periods.map((p) => (
                    <th key={p} scope="col">
                      {t('readings.col.active', { p })}
                    </th>
                  ))}
                  <th scope="col">{t('readings.col.activeTotal')}</th>
                  {reactive.length > 0 && <th scope="col">{t('readings.col.reactive')}</th>}
                  <th scope="col">{t('readings.col.maxPower')}</th>
                  <th scope="col">{t('readings.col.kind')}</th>
                </tr>
              </thead>
              <tbody>
                {[...lecturas].reverse().map((l) => (
                  <tr key={l.FechaInicio}>
                    <td>
                      {formatValue(l.FechaInicio, 'date')} – {formatValue(l.FechaFin, 'date')}
                    </td>
                    <td>{l.Tarifa}</td>
                    {series.periods.map((p) => (
                      <td key={p}>{l.ActivaKwh?.[p] == null ? '—' : formatNumber(l.ActivaKwh[p], 0)}</td>
                    ))}
                    <td>{formatNumber(sumOf(l.ActivaKwh), 0)}</td>
                    {reactive.length > 0 && <td>{formatNumber(sumOf(l.ReactivaKvarh), 0)}</td>}
                    <td>{formatValue(maxOf(l.PotenciaDemandadaKw), 'power')}</td>
                    <td>{l.TipoLectura === 'estimada' ? t('readings.estimated') : t('readings.actual')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </section>
  )
}
