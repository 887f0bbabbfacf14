import { useQuery } from '@tanstack/react-query'
import { api } from '../../../api/client'
import { formatValue } from '../../../renderer/format'
import { formatNumber } from '../../shared/charts'
import { PanelState } from './PanelState'
import type { DashboardSummary } from '../../../../schemas/dashboard'

interface Figure {
  key: string
  label: string
  value: string
  note?: string
  tone?: 'warn'
}

const int = (n: number) => formatValue(n, 'integer')
const money = (n: number) => formatValue(n, 'money')
const plural = (n: number, one: string, many: string) => `${int(n)} ${n === 1 ? one : many}`

/** The headline figures, most useful first. */
export function summaryFigures(r: DashboardSummary, canSeeRenewals: boolean): Figure[] {
  const figures: Figure[] = [
    { key: 'activos', label: 'Contratos activos', value: int(r.ContratosActivos), note: `de ${int(r.ContratosTotal)} en total` },
    { key: 'tramite', label: 'En trámite', value: int(r.ContratosEnTramite), note: `${plural(r.ContratosPendientesFirma, 'pendiente', 'pendientes')} de firma` },
    { key: 'altas', label: 'Altas este mes', value: int(r.AltasMesActual), note: `${int(r.AltasMesAnterior)} el mes anterior` },
    { key: 'movimientos', label: 'Activaciones este mes', value: int(r.ActivacionesMesActual), note: plural(r.BajasMesActual, 'baja', 'bajas') },
    { key: 'facturacion', label: 'Facturación del mes', value: money(r.FacturacionMesActual), note: `${money(r.FacturacionMesAnterior)} el mes anterior` },
    { key: 'pendiente', label: 'Pendiente de cobro', value: money(r.ImportePendiente), note: plural(r.FacturasPendientes, 'factura', 'facturas') },
    { key: 'impagos', label: 'Impagos', value: money(r.ImpagosImporte), note: plural(r.ImpagosNumero, 'factura', 'facturas'), tone: r.ImpagosNumero > 0 ? 'warn' : undefined },
    canSeeRenewals
      ? { key: 'renovaciones', label: 'Renovaciones en 30 días', value: int(r.RenovacionesProximas), note: 'abiertas' }
      : { key: 'cartera', label: 'Consumo anual de la cartera', value: `${formatNumber(r.ConsumoAnualCarteraKwh / 1_000_000, 1)} GWh`, note: `${int(r.Agentes)} agentes activos` },
  ]
  return figures
}

export function SummaryPanel({ canSeeRenewals }: { canSeeRenewals: boolean }) {
  const query = useQuery({
    queryKey: ['dashboard', 'resumen'],
    queryFn: () => api.get<DashboardSummary>('/api/utility/dashboard/resumen'),
    // Titled and worded by the endpoint catalogue (spec §8).
    meta: { reportErrors: true },
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
            <p className="dash-muted dash-summary__date">A fecha {formatValue(r.Fecha, 'date')}</p>
          </div>
        )
      }}
    </PanelState>
  )
}
