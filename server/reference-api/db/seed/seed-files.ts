import type Database from 'better-sqlite3'
import { nombreClave, tipoArchivo } from '../../lib/archivos'
import { isoTimestamp } from '../../lib/catalogos'
import type { Random } from '../../lib/random'

/**
 * The file area's demo data, per brand: a few folders (Plantillas, Tarifas 2026, Formación
 * comercial with an empty Presentaciones, Documentación legal) and a handful of small real
 * files (a read-me, a letter template, the brand's fixed-price tariffs as CSV, a 2.0TD guide
 * and a short PDF of general conditions).
 *
 * Only rows are written here (the seed is one synchronous transaction over the database): each
 * demo file carries a content key (`semilla`) and its bytes, size and SHA-256 are produced when
 * the API starts (`materializeDemoFiles`, lib/archivos.ts).
 */

interface DemoFolder {
  nombre: string
  padre?: string
  archivos: { nombre: string; semilla: string }[]
}

const FOLDERS: DemoFolder[] = [
  { nombre: 'Plantillas', archivos: [{ nombre: 'Carta de bienvenida.txt', semilla: 'carta-bienvenida' }] },
  { nombre: 'Tarifas 2026', archivos: [{ nombre: 'Tarifas precio fijo 2026.csv', semilla: 'tarifas-csv' }] },
  { nombre: 'Formación comercial', archivos: [{ nombre: 'Guía rápida 2.0TD.txt', semilla: 'guia-20td' }] },
  { nombre: 'Presentaciones', padre: 'Formación comercial', archivos: [] },
  { nombre: 'Documentación legal', archivos: [{ nombre: 'Resumen condiciones generales.pdf', semilla: 'condiciones-pdf' }] },
]
const ROOT_FILES = [{ nombre: 'Léeme.txt', semilla: 'leeme' }]

export function seedFiles(db: Database.Database, rnd: Random, today: Date): void {
  const marcas = db.prepare('SELECT id FROM marcas ORDER BY id').all() as { id: number }[]
  const admin = db.prepare("SELECT id FROM usuarios WHERE email = 'admin@portal.test'").get() as { id: number } | undefined
  const insertFolder = db.prepare('INSERT INTO carpetas (marca_id, padre_id, nombre, nombre_clave, fecha, usuario_id) VALUES (?, ?, ?, ?, ?, ?)')
  const insertFile = db.prepare(
    `INSERT INTO archivos (marca_id, carpeta_id, nombre, nombre_clave, extension, tipo_mime, semilla, fecha, usuario_id, usuario_nombre)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 'Sistema')`,
  )
  const base = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())
  /** A working-hours instant some days before today. */
  const past = (minDays: number, maxDays: number) => isoTimestamp(base - rnd.int(minDays, maxDays) * 86_400_000 + rnd.int(8 * 3600, 18 * 3600) * 1000)

  const addFile = (marcaId: number, carpetaId: number | null, f: { nombre: string; semilla: string }, fecha: string) => {
    const tipo = tipoArchivo(f.nombre)!
    insertFile.run(marcaId, carpetaId, f.nombre, nombreClave(f.nombre), tipo.extension, tipo.mime, f.semilla, fecha)
  }

  for (const { id: marcaId } of marcas) {
    const ids = new Map<string, number>()
    for (const folder of FOLDERS) {
      const fecha = folder.padre ? past(30, 59) : past(60, 150)
      const padre = folder.padre ? (ids.get(folder.padre) ?? null) : null
      const id = Number(insertFolder.run(marcaId, padre, folder.nombre, nombreClave(folder.nombre), fecha, admin?.id ?? null).lastInsertRowid)
      ids.set(folder.nombre, id)
      for (const f of folder.archivos) addFile(marcaId, id, f, past(3, 59))
    }
    for (const f of ROOT_FILES) addFile(marcaId, null, f, past(3, 59))
  }
}
