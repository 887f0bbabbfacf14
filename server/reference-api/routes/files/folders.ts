import type { FastifyInstance } from 'fastify'
import { nombreCarpeta, nombreClave } from '../../lib/archivos'
import { isoTimestamp } from '../../lib/catalogos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { bodyObject, positiveInt } from '../business/shared'
import { FOLDER_SELECT, byName, carpetaParam, filesIn, foldersIn, requireFolder } from './shared'
import type { Folder } from '../../../../schemas/business/files'
import { nextId } from '../../lib/next-id'

type CarpetaNodo = Folder & { Hijas: CarpetaNodo[] }

/** Folders: create, tree, one folder's content, rename (README: Archivos). */
export async function folderRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  /** 409 when a sibling (other than `exceptId`) already has the name, ignoring case. */
  const checkFree = (marcaId: number, padreId: number | null, nombre: string, exceptId = 0) => {
    const clash = db
      .prepare('SELECT nombre FROM carpetas WHERE marca_id = ? AND coalesce(padre_id, 0) = ? AND nombre_clave = ? AND id <> ?')
      .get(marcaId, padreId ?? 0, nombreClave(nombre), exceptId) as { nombre: string } | undefined
    if (clash) fail(409, `Ya existe una carpeta llamada «${clash.nombre}» en ${padreId === null ? 'la carpeta raíz' : 'esta carpeta'}.`)
  }

  app.post('/api/folder/create', async (request, reply) => {
    const body = bodyObject(request.body)
    const marcaId = request.marca.id
    const nombre = nombreCarpeta(body.Nombre)
    const padreId = carpetaParam(body.CarpetaPadreId, 'CarpetaPadreId')
    const id = db.transaction(() => {
      if (padreId !== null) requireFolder(db, marcaId, padreId)
      checkFree(marcaId, padreId, nombre)
      return Number(
        db
          .prepare('INSERT INTO carpetas (id, marca_id, padre_id, nombre, nombre_clave, fecha, usuario_id) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(nextId(db, 'carpetas'), marcaId, padreId, nombre, nombreClave(nombre), isoTimestamp(now()), request.caller!.userId).lastInsertRowid,
      )
    })()
    return reply.code(201).send(requireFolder(db, marcaId, id))
  })

  app.get('/api/folders', async (request) => {
    const rows = db.prepare(`${FOLDER_SELECT} WHERE c.marca_id = ?`).all(request.marca.id) as Folder[]
    const nodes = new Map<number, CarpetaNodo>(rows.map((r) => [r.Id, { ...r, Hijas: [] }]))
    const roots: CarpetaNodo[] = []
    for (const node of nodes.values()) {
      const parent = node.CarpetaPadreId === null ? undefined : nodes.get(node.CarpetaPadreId)
      if (parent) parent.Hijas.push(node)
      else roots.push(node)
    }
    const sortDeep = (list: CarpetaNodo[]) => {
      list.sort(byName)
      for (const n of list) sortDeep(n.Hijas)
    }
    sortDeep(roots)
    return roots
  })

  app.get('/api/folder', async (request) => {
    const marcaId = request.marca.id
    const id = carpetaParam((request.query as Record<string, unknown>).id, 'id')
    if (id === null) return { Carpeta: null, Ruta: [], Carpetas: foldersIn(db, marcaId, null), Archivos: filesIn(db, marcaId, null) }
    const carpeta = requireFolder(db, marcaId, id)
    const ruta = db
      .prepare(
        `WITH RECURSIVE r(id, padre_id, nombre, nivel) AS (
           SELECT id, padre_id, nombre, 0 FROM carpetas WHERE id = ? AND marca_id = ?
           UNION ALL SELECT c.id, c.padre_id, c.nombre, r.nivel + 1 FROM carpetas c JOIN r ON c.id = r.padre_id)
         SELECT id AS Id, nombre AS Nombre FROM r ORDER BY nivel DESC`,
      )
      .all(id, marcaId) as { Id: number; Nombre: string }[]
    return { Carpeta: carpeta, Ruta: ruta, Carpetas: foldersIn(db, marcaId, id), Archivos: filesIn(db, marcaId, id) }
  })

  app.put('/api/rename-folder', async (request) => {
    const q = request.query as Record<string, unknown>
    const marcaId = request.marca.id
    const id = positiveInt(q.carpetaId, 'carpetaId')
    const nombre = nombreCarpeta(q.newName, 'newName')
    db.transaction(() => {
      const carpeta = requireFolder(db, marcaId, id)
      checkFree(marcaId, carpeta.CarpetaPadreId, nombre, id)
      db.prepare('UPDATE carpetas SET nombre = ?, nombre_clave = ? WHERE id = ?').run(nombre, nombreClave(nombre), id)
    })()
    return requireFolder(db, marcaId, id)
  })
}
