import type { Chart as ChartJS, ChartDataset } from 'chart.js'
import { enUS, es } from 'date-fns/locale'
import { Button } from 'primereact/button'
import { useMemo, useRef, type ReactNode } from 'react'
import { Line } from '../shared/charts'
import { useTheme } from '../../ui/theme'
import { useI18n, useMessages } from '../../i18n/i18n'
import { ChartFrame, type ChartTable } from '../shared/ChartFrame'
import { baseOptions } from '../shared/chart-theme'
import { formatNumber } from '../../ui/format'
import { DECIMATED_DATASET, DECIMATION_OPTIONS, ZOOM_OPTIONS } from '../shared/charts-zoom'
import { messages } from './messages'
import { EmptyState, ErrorState, LoadingState } from '../../ui/states'

export interface PriceChartProps {
  title: string
  summary: string
  table: ChartTable
  datasets: ChartDataset<'line', { x: number; y: number | null }[]>[]
  unit: string
  digits: number
  timeUnit: 'hour' | 'day' | 'week' | 'month'
  tooltipFormat: string
  state: 'loading' | 'error' | 'empty' | 'ready'
  errorText: string
  exporting: boolean
  onExport: () => void
  onRetry: () => void
  children?: ReactNode
  legend?: boolean
}

/** One price series over time: zoomable line chart with hover values, a data table and an export. */
export function PriceChart(props: PriceChartProps) {
  const { dark } = useTheme()
  const t = useMessages(messages)
  const { lang } = useI18n()
  const ref = useRef<ChartJS<'line'>>(null)
  const { unit, digits, timeUnit, tooltipFormat, legend = true } = props
  // Few points (a short daily range): show them, a lone value would otherwise be invisible.
  const longest = Math.max(0, ...props.datasets.map((d) => d.data.length))
  const pointRadius = longest <= 14 ? 3 : longest <= 45 ? 1.5 : 0
  const options = useMemo(() => {
    const base = baseOptions()
    return {
      ...base,
      interaction: { mode: 'index' as const, intersect: false },
      elements: { point: { radius: pointRadius, hoverRadius: 4 }, line: { borderWidth: 2 } },
      // Days without a period (a 2.0TD weekend has no P1) leave no hole in its line; the table shows them as —.
      spanGaps: true,
      plugins: {
        ...base.plugins,
        legend: { ...base.plugins.legend, display: legend },
        zoom: { ...ZOOM_OPTIONS, limits: { x: { min: 'original' as const, max: 'original' as const } } },
        decimation: DECIMATION_OPTIONS,
        tooltip: {
          ...base.plugins.tooltip,
          callbacks: {
            label: (ctx: { dataset: { label?: string }; parsed: { y: number | null } }) =>
              `${ctx.dataset.label}: ${ctx.parsed.y === null ? '—' : formatNumber(ctx.parsed.y, digits)} ${unit}`,
          },
        },
      },
      scales: {
        x: {
          ...base.scales.x,
          type: 'time' as const,
          // Month names and day-month order of the time axis follow the language.
          adapters: { date: { locale: lang === 'en' ? enUS : es } },
          time: { unit: timeUnit, tooltipFormat, displayFormats: { hour: 'HH:mm', day: lang === 'en' ? 'MMM d' : 'd MMM', week: lang === 'en' ? 'MMM d' : 'd MMM', month: 'MMM yyyy' } },
          ticks: { ...base.scales.x.ticks, maxRotation: 0, autoSkip: true, autoSkipPadding: 12 },
        },
        y: {
          ...base.scales.y,
          title: { display: true, text: unit, color: base.scales.y.ticks.color },
          ticks: { ...base.scales.y.ticks, callback: (v: string | number) => formatNumber(Number(v), digits > 3 ? 3 : digits) },
        },
      },
    }
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- chart colours are read from the theme's CSS variables and texts in the interface's language, which `dark` and `lang` stand for
  }, [unit, digits, timeUnit, tooltipFormat, legend, pointRadius, dark, lang])

  const data = useMemo(() => ({ datasets: props.datasets.map((d) => ({ ...d, ...DECIMATED_DATASET })) }), [props.datasets])

  const actions = (
    <>
      <Button type="button" size="small" text icon="pi pi-search-minus" label={t('chart.resetZoom')} disabled={props.state !== 'ready'} onClick={() => ref.current?.resetZoom()} />
      <Button type="button" size="small" text icon="pi pi-file-excel" label={t('chart.export')} loading={props.exporting} disabled={props.state === 'loading'} onClick={props.onExport} />
    </>
  )

  return (
    <section className="card prices-chart" aria-busy={props.state === 'loading'}>
      {props.state === 'ready' ? (
        <ChartFrame title={props.title} summary={props.summary} table={props.table} height={320} actions={actions}>
          <Line ref={ref} data={data} options={options} aria-hidden="true" />
        </ChartFrame>
      ) : (
        <div className="chart-frame">
          <div className="chart-frame__header">
            <h3 className="chart-frame__title">{props.title}</h3>
            <span className="chart-frame__actions">{actions}</span>
          </div>
          <div className="prices-chart__placeholder" style={{ height: 320 }}>
            {props.state === 'loading' && <LoadingState lines={4} className="prices-chart__state" />}
            {props.state === 'empty' && <EmptyState icon="pi pi-chart-line">{t('chart.empty')}</EmptyState>}
            {props.state === 'error' && (
              <ErrorState compact onRetry={props.onRetry}>
                {props.errorText}
              </ErrorState>
            )}
          </div>
        </div>
      )}
      {props.children}
    </section>
  )
}
