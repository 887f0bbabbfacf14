import { Bar } from '../shared/charts'
import { useTheme } from '../../ui/theme'
import { useMessages } from '../../i18n/i18n'
import { ChartFrame } from '../shared/ChartFrame'
import { baseOptions, seriesColors } from '../shared/chart-theme'
import { formatNumber } from '../../ui/format'
import { messages } from './messages'
import { balanceWithout } from './model'
import type { BatteryResult, CalculationBody } from '../../../schemas/business/battery'

/** The year's energy flows without and with the chosen battery: self-consumed, poured to the grid, bought from the grid. */
export function FlowsChart({ body, result }: { body: CalculationBody; result: BatteryResult }) {
  const { dark } = useTheme()
  const t = useMessages(messages)
  const before = balanceWithout(body.ConsumoAnualKwh, body.ProduccionFvAnualKwh, body.AutoconsumoDirectoKwh)
  const after = {
    autoconsumo: body.AutoconsumoDirectoKwh + result.EntregadaKwh,
    excedente: result.ExcedenteDespuesKwh,
    importacion: result.ImportacionDespuesKwh,
  }
  const labels = [t('chart.selfConsumption'), t('chart.surplus'), t('chart.imports')]
  const withLabel = t('chart.with', { model: result.Bateria.Modelo })
  const beforeValues = [before.autoconsumo, before.excedente, before.importacion].map(Math.round)
  const afterValues = [after.autoconsumo, after.excedente, after.importacion].map(Math.round)
  const colors = seriesColors()
  const options = baseOptions()
  const kwh = (v: number) => `${formatNumber(v, 0)} kWh`
  const summary = t('chart.summary', {
    battery: `${result.Bateria.Fabricante} ${result.Bateria.Modelo}`,
    flows: labels.map((l, i) => `${l.toLowerCase()} ${kwh(beforeValues[i]!)} → ${kwh(afterValues[i]!)}`).join('; '),
  })
  return (
    <div className="card battery__chart" data-theme={dark ? 'dark' : 'light'}>
      <ChartFrame
        title={t('chart.title')}
        summary={summary}
        height={260}
        table={{ columns: [t('chart.flow'), `${t('chart.without')} (kWh)`, `${withLabel} (kWh)`], rows: labels.map((l, i) => [l, beforeValues[i]!, afterValues[i]!]) }}
      >
        <Bar
          key={dark ? 'dark' : 'light'}
          // react-chartjs-2 gives the canvas role="img": it needs its own name too (axe role-img-alt).
          aria-label={summary}
          data={{
            labels,
            datasets: [
              { label: t('chart.without'), data: beforeValues, backgroundColor: '#94a3b8', borderRadius: 4 },
              { label: withLabel, data: afterValues, backgroundColor: colors[0], borderRadius: 4 },
            ],
          }}
          options={{
            ...options,
            plugins: {
              ...options.plugins,
              tooltip: { ...options.plugins.tooltip, callbacks: { label: (ctx) => `${ctx.dataset.label}: ${kwh(Number(ctx.raw))}` } },
            },
            scales: {
              x: options.scales.x,
              y: { ...options.scales.y, beginAtZero: true, ticks: { ...options.scales.y.ticks, callback: (v) => kwh(Number(v)) } },
            },
          }}
        />
      </ChartFrame>
    </div>
  )
}
