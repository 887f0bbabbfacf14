import type Database from 'better-sqlite3'
import { fail } from '../../lib/http'
import { positiveInt } from '../business/shared'
import type { FileItem, Folder } from '../../../../schemas/business/files'

/** Shapes and lookups of the file area (README: Archivos). Every query is limited to one brand. */

export const FOLDER_SELECT = `
  SELECT c.id AS Id, c.nombre AS Nombre, c.padre_id AS CarpetaPadreId,
    (SELECT COUNT(*) FROM archivos a WHERE a.carpeta_id = c.id) AS NumArchivos,
    (SELECT COUNT(*) FROM carpetas h WHERE h.padre_id = c.id) AS NumCarpetas,
    c.fecha AS Fecha
  FROM carpetas c`

export const FILE_SELECT = `
  SELECT a.id AS Id, a.nombre AS Nombre, a.extension AS Extension, a.tipo_mime AS TipoMime, a.tamano AS Tamano,
    a.carpeta_id AS CarpetaId, a.fecha AS Fecha,
    coalesce(CASE WHEN u.id IS NOT NULL THEN trim(u.nombre || ' ' || u.apellidos) END, a.usuario_nombre) AS Usuario
  FROM archivos a LEFT JOIN usuarios u ON u.id = a.usuario_id`

const collator = new Intl.Collator('es', { sensitivity: 'base', numeric: true })

/** By name as a Spanish reader expects (case and accents ignored, numbers in order), then id. */
export function byName<T extends { Nombre: string; Id: number }>(a: T, b: T): number {
  return collator.compare(a.Nombre, b.Nombre) || a.Id - b.Id
}

/** `7`, `7 y 9`, `7, 8 y 9`. */
export function listaEs(items: readonly (string | number)[]): string {
  const s = items.map(String)
  return s.length <= 1 ? (s[0] ?? '') : `${s.slice(0, -1).join(', ')} y ${s[s.length - 1]}`
}

/** A folder id from a parameter: empty, absent, `0` or null = the root (null); else a positive integer. */
export function carpetaParam(value: unknown, name: string): number | null {
  if (value === undefined || value === null) return null
  if (typeof value === 'string' && (value.trim() === '' || value.trim() === '0')) return null
  if (value === 0) return null
  return positiveInt(value, name)
}

export function folderRow(db: Database.Database, marcaId: number, id: number): Folder | undefined {
  return db.prepare(`${FOLDER_SELECT} WHERE c.id = ? AND c.marca_id = ?`).get(id, marcaId) as Folder | undefined
}

/** A folder of the brand, or 404. */
export function requireFolder(db: Database.Database, marcaId: number, id: number): Folder {
  const row = folderRow(db, marcaId, id)
  if (!row) fail(404, `La carpeta ${id} no existe.`)
  return row
}

export function fileRows(db: Database.Database, marcaId: number, ids: readonly number[]): FileItem[] {
  if (ids.length === 0) return []
  return db.prepare(`${FILE_SELECT} WHERE a.marca_id = ? AND a.id IN (${ids.map(() => '?').join(', ')})`).all(marcaId, ...ids) as FileItem[]
}

/** The files of a folder (null = root), by name. */
export function filesIn(db: Database.Database, marcaId: number, carpetaId: number | null): FileItem[] {
  const rows = db.prepare(`${FILE_SELECT} WHERE a.marca_id = ? AND coalesce(a.carpeta_id, 0) = ?`).all(marcaId, carpetaId ?? 0) as FileItem[]
  return rows.sort(byName)
}

/** The subfolders of a folder (null = root), by name. */
export function foldersIn(db: Database.Database, marcaId: number, carpetaId: number | null): Folder[] {
  const rows = db.prepare(`${FOLDER_SELECT} WHERE c.marca_id = ? AND coalesce(c.padre_id, 0) = ?`).all(marcaId, carpetaId ?? 0) as Folder[]
  return rows.sort(byName)
}

/** Name keys already used by files in a folder (null = root). */
export function fileNameKeys(db: Database.Database, marcaId: number, carpetaId: number | null): Set<string> {
  const rows = db.prepare('SELECT nombre_clave FROM archivos WHERE marca_id = ? AND coalesce(carpeta_id, 0) = ?').all(marcaId, carpetaId ?? 0) as { nombre_clave: string }[]
  return new Set(rows.map((r) => r.nombre_clave))
}

/** A folder and every folder below it (ids), in one brand. */
export function folderSubtree(db: Database.Database, marcaId: number, rootIds: readonly number[]): number[] {
  if (rootIds.length === 0) return []
  const rows = db
    .prepare(
      `WITH RECURSIVE t(id) AS (SELECT id FROM carpetas WHERE marca_id = ? AND id IN (${rootIds.map(() => '?').join(', ')})
         UNION SELECT c.id FROM carpetas c JOIN t ON c.padre_id = t.id)
       SELECT id FROM t ORDER BY id`,
    )
    .all(marcaId, ...rootIds) as { id: number }[]
  return rows.map((r) => r.id)
}

/**
 * A list of ids from a body field: an array of positive integers (numbers or digit strings);
 * absent or null = empty. Duplicates are dropped (first occurrence kept); at most 1 000.
 */
export function idList(value: unknown, name: string): number[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) fail(400, `${name} debe ser una lista de ids.`)
  if (value.length > 1000) fail(400, `${name} admite como máximo 1000 ids.`)
  const out: number[] = []
  const seen = new Set<number>()
  for (const v of value) {
    const id = positiveInt(v, `Cada id de ${name}`)
    if (!seen.has(id)) {
      seen.add(id)
      out.push(id)
    }
  }
  return out
}

/** 404 naming the ids of `wanted` that are not among `found`. */
export function requireAll(wanted: readonly number[], found: Iterable<number>, kind: 'archivo' | 'carpeta'): void {
  const have = new Set(found)
  const missing = wanted.filter((id) => !have.has(id))
  if (missing.length === 0) return
  const plural = kind === 'archivo' ? 'Los archivos' : 'Las carpetas'
  const singular = kind === 'archivo' ? 'El archivo' : 'La carpeta'
  fail(404, missing.length === 1 ? `${singular} ${missing[0]} no existe.` : `${plural} ${listaEs(missing)} no existen.`)
}
