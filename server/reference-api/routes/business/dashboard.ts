import type Database from 'better-sqlite3'
import { ESTADOS_EN_SUMINISTRO, ESTADOS_EN_TRAMITE } from '../../lib/catalogos'
import { scopeConditions, type Scope } from '../../lib/visibility'
import type { DashboardSummary } from '../../../../schemas/dashboard'

const inList = (values: readonly string[]) => `(${values.map((v) => `'${v}'`).join(', ')})`

/** The brand's (or the sales channel's) headline figures on `today` (`YYYY-MM-DD`). */
export function dashboardSummary(db: Database.Database, scope: Scope, today: string): DashboardSummary {
  const [y, m] = today.split('-').map(Number) as [number, number]
  const month = today.slice(0, 7)
  const prev = new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 7)
  const in30 = new Date(Date.parse(`${today}T00:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10)

  const c = scopeConditions(scope)
  const contracts = db
    .prepare(
      `SELECT COUNT(*) AS total,
         COALESCE(SUM(c.estado IN ${inList(ESTADOS_EN_SUMINISTRO)}), 0) AS activos,
         COALESCE(SUM(c.estado IN ${inList(ESTADOS_EN_TRAMITE)}), 0) AS tramite,
         COALESCE(SUM(c.estado = 'pendiente_firma'), 0) AS firma,
         COALESCE(SUM(substr(c.fecha_alta, 1, 7) = ? AND c.fecha_alta <= ?), 0) AS altas,
         COALESCE(SUM(substr(c.fecha_alta, 1, 7) = ?), 0) AS altas_prev,
         COALESCE(SUM(substr(c.fecha_activacion, 1, 7) = ? AND c.fecha_activacion <= ?), 0) AS activaciones,
         COALESCE(SUM(substr(c.fecha_baja, 1, 7) = ? AND c.fecha_baja <= ?), 0) AS bajas,
         COALESCE(SUM(CASE WHEN c.estado IN ${inList(ESTADOS_EN_SUMINISTRO)} THEN c.consumo_anual_kwh ELSE 0 END), 0) AS consumo
       FROM contratos c WHERE ${c.where.join(' AND ')}`,
    )
    .get(month, today, prev, month, today, month, today, ...c.params) as Record<string, number>

  const f = scopeConditions(scope, 'f.marca_id')
  const invoices = db
    .prepare(
      `SELECT COALESCE(SUM(CASE WHEN substr(f.fecha_emision, 1, 7) = ? AND f.fecha_emision <= ? THEN f.total END), 0) AS mes,
         COALESCE(SUM(CASE WHEN substr(f.fecha_emision, 1, 7) = ? THEN f.total END), 0) AS mes_prev,
         COALESCE(SUM(f.estado_pago = 'pendiente'), 0) AS pendientes,
         COALESCE(SUM(CASE WHEN f.estado_pago = 'pendiente' THEN f.total END), 0) AS importe_pendiente,
         COALESCE(SUM(f.estado_pago IN ('devuelta', 'impagada')), 0) AS impagos,
         COALESCE(SUM(CASE WHEN f.estado_pago IN ('devuelta', 'impagada') THEN f.total END), 0) AS importe_impagos
       FROM facturas f JOIN contratos c ON c.id = f.contrato_id WHERE ${f.where.join(' AND ')}`,
    )
    .get(month, today, prev, ...f.params) as Record<string, number>

  const r = scopeConditions(scope, 'r.marca_id')
  const renewals = db
    .prepare(
      `SELECT COUNT(*) AS n FROM renovaciones r JOIN contratos c ON c.id = r.contrato_id JOIN subestados_renovacion s ON s.id = r.subestado_id
       WHERE ${r.where.join(' AND ')} AND s.final = 0 AND r.fecha_renovacion BETWEEN ? AND ?`,
    )
    .get(...r.params, today, in30) as { n: number }

  const agents = scope.agentIds
    ? scope.agentIds.length
      ? (db.prepare(`SELECT COUNT(*) AS n FROM agentes WHERE activo = 1 AND id IN (${scope.agentIds.map(() => '?').join(', ')})`).get(...scope.agentIds) as { n: number })
      : { n: 0 }
    : (db.prepare('SELECT COUNT(*) AS n FROM agentes WHERE activo = 1 AND marca_id = ?').get(scope.marcaId) as { n: number })

  const money = (v: number | undefined) => Math.round((v ?? 0) * 100) / 100
  return {
    Fecha: today,
    ContratosTotal: contracts.total ?? 0,
    ContratosActivos: contracts.activos ?? 0,
    ContratosEnTramite: contracts.tramite ?? 0,
    ContratosPendientesFirma: contracts.firma ?? 0,
    AltasMesActual: contracts.altas ?? 0,
    AltasMesAnterior: contracts.altas_prev ?? 0,
    ActivacionesMesActual: contracts.activaciones ?? 0,
    BajasMesActual: contracts.bajas ?? 0,
    ConsumoAnualCarteraKwh: contracts.consumo ?? 0,
    FacturacionMesActual: money(invoices.mes),
    FacturacionMesAnterior: money(invoices.mes_prev),
    FacturasPendientes: invoices.pendientes ?? 0,
    ImportePendiente: money(invoices.importe_pendiente),
    ImpagosNumero: invoices.impagos ?? 0,
    ImpagosImporte: money(invoices.importe_impagos),
    RenovacionesProximas: renewals.n,
    Agentes: agents.n,
  }
}
