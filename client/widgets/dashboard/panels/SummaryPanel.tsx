import { useQuery } from '@tanstack/react-query'
import { messageIn, useMessages } from '../../../i18n/i18n'
import { formatValue, formatNumber } from '../../../ui/format'
import { messages } from '../messages'
import { PanelState } from './PanelState'
import type { DashboardSummary } from '../../../../schemas/dashboard'
import { summaryQuery } from '../queries'

interface Figure {
  key: string
  label: string
  value: string
  note?: string
  tone?: 'warn'
}

const int = (n: number) => formatValue(n, 'integer')
const money = (n: number) => formatValue(n, 'money')
const text = (key: keyof typeof messages.es, vars?: Record<string, string | number>) => messageIn(messages, key, vars)
/** `{n} factura` / `{n} facturas`: a message with a singular and a plural form (keys `….one`, `….many`). */
const plural = (n: number, key: 'summary.inProgress.note' | 'summary.activations.note' | 'summary.invoices') => text(`${key}.${n === 1 ? 'one' : 'many'}`, { n: int(n) })

/** The headline figures, most useful first (in the current language). */
export function summaryFigures(r: DashboardSummary, canSeeRenewals: boolean): Figure[] {
  const figures: Figure[] = [
    { key: 'activos', label: text('summary.active'), value: int(r.ContratosActivos), note: text('summary.active.note', { n: int(r.ContratosTotal) }) },
    { key: 'tramite', label: text('summary.inProgress'), value: int(r.ContratosEnTramite), note: plural(r.ContratosPendientesFirma, 'summary.inProgress.note') },
    { key: 'altas', label: text('summary.new'), value: int(r.AltasMesActual), note: text('summary.new.note', { n: int(r.AltasMesAnterior) }) },
    { key: 'movimientos', label: text('summary.activations'), value: int(r.ActivacionesMesActual), note: plural(r.BajasMesActual, 'summary.activations.note') },
    { key: 'facturacion', label: text('summary.billing'), value: money(r.FacturacionMesActual), note: text('summary.billing.note', { amount: money(r.FacturacionMesAnterior) }) },
    { key: 'pendiente', label: text('summary.outstanding'), value: money(r.ImportePendiente), note: plural(r.FacturasPendientes, 'summary.invoices') },
    { key: 'impagos', label: text('summary.unpaid'), value: money(r.ImpagosImporte), note: plural(r.ImpagosNumero, 'summary.invoices'), tone: r.ImpagosNumero > 0 ? 'warn' : undefined },
    canSeeRenewals
      ? { key: 'renovaciones', label: text('summary.renewals'), value: int(r.RenovacionesProximas), note: text('summary.renewals.note') }
      : { key: 'cartera', label: text('summary.portfolio'), value: `${formatNumber(r.ConsumoAnualCarteraKwh / 1_000_000, 1)} GWh`, note: text('summary.portfolio.note', { n: int(r.Agentes) }) },
  ]
  return figures
}

export function SummaryPanel({ canSeeRenewals }: { canSeeRenewals: boolean }) {
  // Subscribes to the language: the figures' texts (read with messageIn) follow a switch.
  const t = useMessages(messages)
  const query = useQuery({
    ...summaryQuery(),
    // Titled and worded by the endpoint catalogue (spec §8).
  })
  return (
    <PanelState queries={[query]}>
      {() => {
        const r = query.data!
        return (
          <div className="dash-summary">
            <dl className="dash-figures">
              {summaryFigures(r, canSeeRenewals).map((f) => (
                <div key={f.key} className={`dash-figure${f.tone ? ` dash-figure--${f.tone}` : ''}`}>
                  <dt className="dash-figure__label">{f.label}</dt>
                  <dd className="dash-figure__value">{f.value}</dd>
                  {f.note && <dd className="dash-figure__note">{f.note}</dd>}
                </div>
              ))}
            </dl>
            <p className="dash-muted dash-summary__date">{t('summary.date', { date: formatValue(r.Fecha, 'date') })}</p>
          </div>
        )
      }}
    </PanelState>
  )
}
