import type Database from 'better-sqlite3'
import { ESTADO_NOMBRES, PROVINCIA_NOMBRES, TARIFA_CODIGOS } from '../lib/catalogos'
import { catalogRankSql } from '../lib/paging'

/**
 * Indexes on expressions made from the catalogs (data/*.json), which an SQL migration cannot
 * spell: the rank of a state's, tariff's or province's name, so a list sorted by that name
 * walks an index in order (`catalogRankSql` gives the list's ORDER BY the same expression).
 * Brought in step whenever the database opens: made when missing, made again when the catalog
 * changed its definition.
 */
export const CATALOG_INDEXES = {
  contratosEstado: { name: 'catalogo_contratos_estado', on: `contratos(marca_id, ${catalogRankSql('estado', ESTADO_NOMBRES, 'text')}, fecha_alta DESC, codigo DESC)` },
  contratosTarifa: { name: 'catalogo_contratos_tarifa', on: `contratos(marca_id, ${catalogRankSql('tarifa_id', TARIFA_CODIGOS, 'enum')}, fecha_alta DESC, codigo DESC)` },
  puntosProvincia: { name: 'catalogo_puntos_suministro_provincia', on: `puntos_suministro(marca_id, ${catalogRankSql('provincia_id', PROVINCIA_NOMBRES, 'text')})` },
} as const

export function syncCatalogIndexes(db: Database.Database): void {
  const current = new Map(
    (db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'catalogo\\_%' ESCAPE '\\'").all() as { name: string; sql: string }[]).map((r) => [r.name, r.sql]),
  )
  db.transaction(() => {
    for (const { name, on } of Object.values(CATALOG_INDEXES)) {
      const sql = `CREATE INDEX ${name} ON ${on}`
      if (current.get(name) === sql) continue
      if (current.has(name)) db.exec(`DROP INDEX ${name}`)
      db.exec(sql)
    }
  })()
}
