import type { UseQueryResult } from '@tanstack/react-query'
import type { Chart as ChartJS } from 'chart.js'
import { Button } from 'primereact/button'
import { useMemo, useRef } from 'react'
import { Bar } from 'react-chartjs-2'
import { useTheme } from '../../app/theme'
import { formatValue } from '../../renderer/format'
import { ChartFrame } from '../shared/ChartFrame'
import { baseOptions, formatNumber, PERIOD_COLORS } from '../shared/charts'
import { ZOOM_OPTIONS } from '../shared/charts-zoom'
import { maxOf, monthlySeries, periodsOf, PERIODS, sumOf, type SipsConsumo } from './sips-logic'

/** The consumption history: monthly kWh per period (stacked bars, zoomable) and the readings table. */
export function ConsumptionView({ query }: { query: UseQueryResult<SipsConsumo> }) {
  const { dark } = useTheme()
  const chartRef = useRef<ChartJS<'bar'>>(null)
  const lecturas = useMemo(() => query.data?.Lecturas ?? [], [query.data])
  const series = useMemo(() => monthlySeries(lecturas), [lecturas])
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
            footer: (items: { dataIndex: number }[]) => `Total: ${formatNumber(series.totals[items[0]?.dataIndex ?? 0] ?? 0, 0)} kWh`,
          },
        },
      },
      scales: {
        x: { ...base.scales.x, stacked: true },
        y: { ...base.scales.y, stacked: true, title: { display: true, text: 'kWh', color: base.scales.y.ticks.color } },
      },
    }
    // The theme's colours are read when the options are built: rebuild on a light/dark switch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [series, dark])

  if (query.isPending) {
    return (
      <section className="card sips-consumption" aria-busy="true">
        <h3 className="chart-frame__title">Consumo mensual por periodo</h3>
        <p className="sips-muted">Cargando el histórico de consumos…</p>
      </section>
    )
  }
  if (query.isError) {
    return (
      <section className="card sips-consumption">
        <h3 className="chart-frame__title">Consumo mensual por periodo</h3>
        <p className="sips-muted">No se ha podido obtener el histórico de consumos.</p>
      </section>
    )
  }
  const total = series.totals.reduce((s, v) => s + v, 0)
  const first = lecturas[0]
  const last = lecturas[lecturas.length - 1]
  const summary =
    lecturas.length > 0
      ? `Consumo mensual de ${series.labels[0]} a ${series.labels[series.labels.length - 1]} por periodos ${series.periods.join(', ')}: ${formatNumber(total, 0)} kWh en ${lecturas.length} meses; el mes de mayor consumo es ${series.labels[series.totals.indexOf(Math.max(...series.totals))]} (${formatNumber(Math.max(...series.totals), 0)} kWh).`
      : 'Sin lecturas.'
  const table = {
    columns: ['Mes', ...series.periods.map((p) => `${p} (kWh)`), 'Total (kWh)'],
    rows: series.labels.map((label, i) => [label, ...series.periods.map((p) => series.data[p][i] ?? 0), series.totals[i] ?? 0]),
  }
  const reactive = periodsOf(lecturas, 'ReactivaKvarh')
  return (
    <section className="card sips-consumption" aria-label="Histórico de consumos">
      <ChartFrame
        title="Consumo mensual por periodo"
        summary={summary}
        table={table}
        height={320}
        actions={<Button type="button" size="small" text icon="pi pi-search-minus" label="Restablecer zoom" onClick={() => chartRef.current?.resetZoom()} />}
      >
        <Bar ref={chartRef} data={data} options={options} aria-hidden="true" />
      </ChartFrame>
      <p className="sips-muted sips-consumption__hint">Rueda o pellizco para ampliar, arrastrar para desplazarse.</p>
      {first && last && (
        <details className="sips-readings">
          <summary>
            Lecturas ({lecturas.length} periodos de facturación, del {formatValue(first.FechaInicio, 'date')} al {formatValue(last.FechaFin, 'date')})
          </summary>
          <div className="sips-readings__scroll" tabIndex={0} role="region" aria-label="Lecturas de facturación">
            <table className="simple-table sips-readings__table">
              <caption className="p-sr-only">Lecturas de facturación del CUPS</caption>
              <thead>
                <tr>
                  <th scope="col">Periodo</th>
                  <th scope="col">Tarifa</th>
                  {series.periods.map((p) => (
                    <th key={p} scope="col">
                      Activa {p} (kWh)
                    </th>
                  ))}
                  <th scope="col">Activa total (kWh)</th>
                  {reactive.length > 0 && <th scope="col">Reactiva (kvarh)</th>}
                  <th scope="col">Potencia máx. demandada</th>
                  <th scope="col">Lectura</th>
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
                    <td>{l.TipoLectura === 'estimada' ? 'Estimada' : 'Real'}</td>
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
