import { useQuery } from '@tanstack/react-query'
import { Line } from '../../shared/lazy-charts'
import { useTheme } from '../../../ui/theme'
import { useMessages } from '../../../i18n/i18n'
import { formatValue, formatNumber } from '../../../ui/format'
import { baseOptions, seriesColors } from '../../shared/chart-theme'
import { ChartFrame } from '../../shared/ChartFrame'
import { messages } from '../messages'
import { PanelState } from './PanelState'
import { omieDayQuery, omieLastDayQuery } from '../queries'

// The panel's own title (an acronym, the same in every language); the message is the endpoint catalogue's for each call.

/** "2026-11-21T13:45" → "13:45" (local Madrid time as written); a bare date stays as it is. */
export function hourLabel(fecha: string): string {
  return /T(\d{2}:\d{2})/.exec(fecha)?.[1] ?? formatValue(fecha, 'date')
}

const price = (n: number) => `${formatNumber(n, 2)} €/MWh`

export function OmiePanel() {
  const { dark } = useTheme()
  const t = useMessages(messages)
  const latest = useQuery(omieLastDayQuery())
  const day = latest.data?.Fecha
  const prices = useQuery({
    ...omieDayQuery(day),
    enabled: !!day,
  })
  return (
    <PanelState queries={[latest, prices]} isEmpty={() => !prices.data?.Puntos?.length}>
      {() => {
        const answer = prices.data!
        const points = answer.Puntos ?? []
        const { MediaMwh, MinimoMwh, MaximoMwh } = answer.Resumen
        const at = (v: number) => points.find((p) => p.PrecioMwh === v)
        const minAt = at(MinimoMwh)
        const maxAt = at(MaximoMwh)
        const dayText = formatValue(day, 'date')
        const summary = t('omie.summary', {
          day: dayText,
          mean: price(MediaMwh),
          min: price(MinimoMwh),
          minAt: minAt ? t('omie.at', { hour: hourLabel(minAt.Fecha) }) : '',
          max: price(MaximoMwh),
          maxAt: maxAt ? t('omie.at', { hour: hourLabel(maxAt.Fecha) }) : '',
        })
        const options = baseOptions()
        const colour = seriesColors()[0] ?? '#047857'
        return (
          <div className="dash-omie">
            <dl className="dash-omie__figures">
              <div>
                <dt>{t('omie.mean')}</dt>
                <dd>{price(MediaMwh)}</dd>
              </div>
              <div>
                <dt>{t('omie.min')}</dt>
                <dd>{price(MinimoMwh)}</dd>
              </div>
              <div>
                <dt>{t('omie.max')}</dt>
                <dd>{price(MaximoMwh)}</dd>
              </div>
            </dl>
            <ChartFrame
              title={t('omie.title', { day: dayText })}
              summary={summary}
              table={{ columns: [t('omie.hour'), '€/MWh'], rows: points.map((p) => [hourLabel(p.Fecha), p.PrecioMwh]) }}
            >
              <Line
                key={dark ? 'dark' : 'light'}
                aria-hidden="true"
                data={{
                  labels: points.map((p) => hourLabel(p.Fecha)),
                  datasets: [
                    { label: t('omie.price'), data: points.map((p) => p.PrecioMwh), borderColor: colour, backgroundColor: /^#[0-9a-f]{6}$/i.test(colour) ? `${colour}26` : 'transparent', fill: true, pointRadius: 0, borderWidth: 2, tension: 0.25 },
                    { label: t('omie.mean'), data: points.map(() => MediaMwh), borderColor: seriesColors()[2] ?? '#d97706', borderDash: [6, 4], pointRadius: 0, borderWidth: 1.5, fill: false },
                  ],
                }}
                options={{
                  ...options,
                  plugins: { ...options.plugins, legend: { display: true, position: 'bottom' as const, labels: { ...options.plugins.legend.labels, boxHeight: 2 } } },
                  scales: {
                    x: { ...options.scales.x, ticks: { ...options.scales.x.ticks, maxTicksLimit: 8, maxRotation: 0 } },
                    y: { ...options.scales.y, title: { display: true, text: '€/MWh', color: options.scales.y.ticks.color } },
                  },
                }}
              />
            </ChartFrame>
          </div>
        )
      }}
    </PanelState>
  )
}
