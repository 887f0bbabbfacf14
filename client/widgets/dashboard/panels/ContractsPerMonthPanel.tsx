import { useQuery } from '@tanstack/react-query'
import { Bar } from '../../shared/lazy-charts'
import { useTheme } from '../../../ui/theme'
import { useMessages } from '../../../i18n/i18n'
import { messages } from '../messages'
import { baseOptions, seriesColors } from '../../shared/chart-theme'
import { formatMonth, formatNumber } from '../../../ui/format'
import { ChartFrame } from '../../shared/ChartFrame'
import { PanelState } from './PanelState'
import type { MonthCount } from '../../../../schemas/business/contracts'
import { perMonthQuery } from '../queries'

/** "2026-01" → "ene 2026" ("Jan 2026" in English). */
export function monthLabel(mes: string): string {
  const [y, m] = mes.split('-').map(Number)
  if (!y || !m) return mes
  return formatMonth(y, m)
}

export function ContractsPerMonthPanel() {
  const { dark } = useTheme()
  const t = useMessages(messages)
  const query = useQuery({
    ...perMonthQuery(),
    // Titled and worded by the endpoint catalogue (spec §8).
  })
  return (
    <PanelState queries={[query]} isEmpty={() => !query.data?.length}>
      {() => {
        const months = query.data ?? []
        const labels = months.map((m) => monthLabel(m.Mes))
        const total = months.reduce((s, m) => s + m.Cantidad, 0)
        const max = months.reduce<MonthCount | null>((best, m) => (!best || m.Cantidad > best.Cantidad ? m : best), null)
        const first = labels[0] ?? ''
        const last = labels[labels.length - 1] ?? ''
        const summary = t('month.summary', { first, last, total: formatNumber(total, 0), max: max ? t('month.summary.max', { n: formatNumber(max.Cantidad, 0), month: monthLabel(max.Mes) }) : '' })
        const options = baseOptions()
        return (
          <ChartFrame
            title={t('month.title', { first, last, total: formatNumber(total, 0) })}
            summary={summary}
            table={{ columns: [t('month.month'), t('month.new')], rows: months.map((m) => [monthLabel(m.Mes), m.Cantidad]) }}
          >
            <Bar
              key={dark ? 'dark' : 'light'}
              aria-hidden="true"
              data={{ labels, datasets: [{ label: t('month.new'), data: months.map((m) => m.Cantidad), backgroundColor: seriesColors()[0], borderRadius: 4 }] }}
              options={{
                ...options,
                plugins: { ...options.plugins, legend: { display: false } },
                scales: { ...options.scales, y: { ...options.scales.y, beginAtZero: true, ticks: { ...options.scales.y.ticks, precision: 0 } } },
              }}
            />
          </ChartFrame>
        )
      }}
    </PanelState>
  )
}
