import { useQuery } from '@tanstack/react-query'
import { Doughnut } from '../../shared/lazy-charts'
import { useTheme } from '../../../ui/theme'
import { getLanguage, useMessages } from '../../../i18n/i18n'
import { messages } from '../messages'
import { baseOptions, themeColor } from '../../shared/chart-theme'
import { formatNumber } from '../../../ui/format'
import { ChartFrame } from '../../shared/ChartFrame'
import { PanelState } from './PanelState'
import { statesQuery } from '../queries'

// "12,5 %" in Spanish, "12.5%" in English.
const percent = (n: number, total: number) => `${total > 0 ? formatNumber((n / total) * 100, 1) : '0'}${getLanguage() === 'en' ? '%' : ' %'}`

export function ContractsByStatePanel() {
  const { dark } = useTheme()
  const t = useMessages(messages)
  const query = useQuery({
    ...statesQuery(),
    // Titled and worded by the endpoint catalogue (spec §8).
  })
  return (
    // No contract in any state: a doughnut of nothing says less than the empty state.
    <PanelState queries={[query]} isEmpty={() => !query.data?.some((s) => s.Cantidad > 0)}>
      {() => {
        const all = query.data ?? []
        const states = all.filter((s) => s.Cantidad > 0)
        const total = all.reduce((s, x) => s + x.Cantidad, 0)
        const summary = t('state.summary', { total: formatNumber(total, 0), list: states.map((s) => `${s.Nombre} ${formatNumber(s.Cantidad, 0)}`).join(', ') })
        const options = baseOptions()
        return (
          <div className="dash-doughnut">
            <ChartFrame
              title={t('state.title', { total: formatNumber(total, 0) })}
              summary={summary}
              table={{ columns: [t('state.state'), t('state.contracts'), '%'], rows: all.map((s) => [s.Nombre, s.Cantidad, percent(s.Cantidad, total)]) }}
            >
              <Doughnut
                key={dark ? 'dark' : 'light'}
                aria-hidden="true"
                data={{
                  labels: states.map((s) => s.Nombre),
                  datasets: [{ data: states.map((s) => s.Cantidad), backgroundColor: states.map((s) => s.Color), borderColor: themeColor('--surface-card', '#ffffff'), borderWidth: 2 }],
                }}
                options={{
                  responsive: options.responsive,
                  maintainAspectRatio: false,
                  animation: false,
                  locale: options.locale,
                  cutout: '58%',
                  plugins: { legend: { display: false }, tooltip: { callbacks: { label: (c) => ` ${c.label}: ${formatNumber(Number(c.raw), 0)} (${percent(Number(c.raw), total)})` } } },
                }}
              />
            </ChartFrame>
            <ul className="dash-legend" aria-label={t('state.legend')}>
              {states.map((s) => (
                <li key={s.Estado}>
                  <span className="dash-legend__swatch" style={{ background: s.Color }} aria-hidden="true" />
                  <span className="dash-legend__name" translate="no">{s.Nombre}</span>
                  <span className="dash-legend__value">{formatNumber(s.Cantidad, 0)}</span>
                </li>
              ))}
            </ul>
          </div>
        )
      }}
    </PanelState>
  )
}
