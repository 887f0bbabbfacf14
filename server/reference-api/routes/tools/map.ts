import type Database from 'better-sqlite3'
import { ESTADOS_EN_SUMINISTRO, PROVINCIAS } from '../../lib/catalogos'
import { fail } from '../../lib/http'
import { scopeConditions, type Scope } from '../../lib/visibility'
import type { ProvinceRow } from '../../../../schemas/business/map'

/**
 * `GET /api/contract/situacion-contratos?agrupar=provincia`: the caller's contracts (same
 * visibility as the list) by the province of their supply point, all 52 provinces (zeros
 * included), ordered by id: contracts (any state), supplying ones (`activo`,
 * `modificacion_en_curso`), distinct supply points with a contract, and the estimated annual
 * consumption of the supplying contracts.
 */
export function situacionPorProvincia(db: Database.Database, scope: Scope, agrupar: unknown): ProvinceRow[] {
  if (agrupar !== 'provincia') fail(400, `El parámetro agrupar solo admite «provincia» (${Array.isArray(agrupar) ? agrupar.join(', ') : String(agrupar)}).`)
  const { where, params } = scopeConditions(scope)
  const supplying = ESTADOS_EN_SUMINISTRO.map((e) => `'${e}'`).join(', ')
  const rows = db
    .prepare(
      `SELECT ps.provincia_id AS provincia, COUNT(*) AS contratos,
         SUM(CASE WHEN c.estado IN (${supplying}) THEN 1 ELSE 0 END) AS activos,
         COUNT(DISTINCT c.punto_suministro_id) AS puntos,
         SUM(CASE WHEN c.estado IN (${supplying}) THEN coalesce(c.consumo_anual_kwh, 0) ELSE 0 END) AS consumo
       FROM contratos c JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id
       WHERE ${where.join(' AND ')}
       GROUP BY ps.provincia_id`,
    )
    .all(...params) as { provincia: number; contratos: number; activos: number; puntos: number; consumo: number }[]
  const byId = new Map(rows.map((r) => [r.provincia, r]))
  return PROVINCIAS.map((p) => {
    const r = byId.get(p.Id)
    return { ProvinciaId: p.Id, Provincia: p.Nombre, Contratos: r?.contratos ?? 0, ContratosActivos: r?.activos ?? 0, PuntosSuministro: r?.puntos ?? 0, ConsumoAnualKwh: r?.consumo ?? 0 }
  })
}
