import type Database from 'better-sqlite3'
import { precioMedioKwh } from '../domain/precios'
import { metaValue } from '../db/database'

/**
 * Fills the average energy price (€/kWh) of every renewal that lacks it, so the renewals list
 * speaks one unit: a fixed contract's is its price average (the renewal's own figures); an
 * indexed one's is the closing-price index of its tariff over the 12 months ending the seed day,
 * with the current fee and with the proposed one (`precioMedioKwh`, the series and regulated
 * figures of its invoices). Runs at every start; rows already filled are left alone.
 */
export function backfillRenewalPrices(db: Database.Database): number {
  const rows = db
    .prepare(
      `SELECT r.id, r.precio_actual, r.precio_propuesto, c.modalidad, c.tarifa_id FROM renovaciones r JOIN contratos c ON c.id = r.contrato_id
       WHERE r.precio_medio_actual_kwh IS NULL OR r.precio_medio_propuesto_kwh IS NULL`,
    )
    .all() as { id: number; precio_actual: number; precio_propuesto: number; modalidad: string; tarifa_id: number }[]
  if (rows.length === 0) return 0
  const day = (metaValue(db, 'seeded_at') ?? new Date().toISOString()).slice(0, 10)
  const update = db.prepare('UPDATE renovaciones SET precio_medio_actual_kwh = ?, precio_medio_propuesto_kwh = ? WHERE id = ?')
  const average = (modalidad: string, tarifaId: number, value: number) =>
    modalidad === 'fijo' ? value : precioMedioKwh({ modalidad, tarifaId, preciosEnergia: [], feeMwh: value }, day)
  db.transaction(() => {
    for (const r of rows) update.run(average(r.modalidad, r.tarifa_id, r.precio_actual), average(r.modalidad, r.tarifa_id, r.precio_propuesto), r.id)
  })()
  return rows.length
}
