import type { FastifyInstance, FastifyRequest } from 'fastify'
import fs from 'node:fs'
import { EXTENSIONES_LABEL, MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES, archivoRelativePath, archivoStore, nombreArchivo, nombreClave, nombreLibre, tipoArchivo } from '../../lib/archivos'
import { isoTimestamp } from '../../lib/catalogos'
import type { ApiContext } from '../../lib/context'
import { contentDisposition, type StoredTemp } from '../../lib/documents'
import { fail } from '../../lib/http'
import { drain, multipartFailure } from '../../lib/multipart'
import { bodyObject, positiveInt } from '../business/shared'
import { carpetaParam, fileNameKeys, fileRows, folderSubtree, idList, requireAll, requireFolder } from './shared'
import type { FileItem } from '../../../../schemas/business/files'
import { nextId } from '../../lib/next-id'

const MB = MAX_UPLOAD_BYTES / (1024 * 1024)

interface Upload {
  name: string
  extension: string
  mime: string
  temp: StoredTemp
}

/** Files: upload, download, delete (one, or folders and files), move (README: Archivos). */
export async function fileRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts
  const store = archivoStore(opts)

  /** Deletes stored bytes after the rows are gone (a missing file is not an error). */
  const removeBytes = (rutas: readonly (string | null)[]) => {
    for (const ruta of rutas) {
      if (!ruta) continue
      try {
        fs.rmSync(store.absolute(ruta), { force: true })
      } catch (err) {
        app.log.warn({ err, ruta }, 'could not remove a stored file')
      }
    }
  }

  app.post('/api/save-files', async (request: FastifyRequest, reply) => {
    if (!request.isMultipart()) fail(400, 'La petición debe ser multipart/form-data: la carpeta en CarpetaId (vacío o 0 para la raíz) y los archivos en Archivos.')
    const marcaId = request.marca.id
    const uploads: Upload[] = []
    let carpetaId: number | null = null
    let problem: unknown = null
    const record = (err: unknown) => {
      problem ??= err
    }
    try {
      const parts = request.parts({
        limits: { files: MAX_UPLOAD_FILES, fileSize: MAX_UPLOAD_BYTES, fields: 10, fieldSize: 1000, parts: MAX_UPLOAD_FILES + 10 },
      })
      for await (const part of parts) {
        if (part.type === 'field') {
          if (problem) continue
          try {
            if (part.fieldname === 'CarpetaId') {
              carpetaId = carpetaParam(typeof part.value === 'string' ? part.value : String(part.value), 'CarpetaId')
              if (carpetaId !== null) requireFolder(db, marcaId, carpetaId)
            }
          } catch (err) {
            record(err)
          }
          continue
        }
        if (problem) {
          await drain(part.file)
          continue
        }
        const shown = nombreArchivo(part.filename ?? '')
        try {
          if (part.fieldname !== 'Archivos') fail(400, `Campo de archivo inesperado «${part.fieldname.slice(0, 40)}»: los archivos van en el campo Archivos.`)
          const tipo = tipoArchivo(shown)
          if (!tipo) fail(400, `El archivo «${shown}» no es de un tipo admitido (${EXTENSIONES_LABEL}).`)
          const temp = await store.saveTemp(part.file)
          uploads.push({ name: shown, extension: tipo.extension, mime: tipo.mime, temp })
          if (temp.truncated) fail(413, `El archivo «${shown}» supera el tamaño máximo de ${MB} MB.`)
          if (temp.size === 0) fail(400, `El archivo «${shown}» está vacío.`)
        } catch (err) {
          record(err)
          if (!part.file.readableEnded) await drain(part.file)
        }
      }
    } catch (err) {
      record(multipartFailure(err, { maxFiles: MAX_UPLOAD_FILES, maxBytes: MAX_UPLOAD_BYTES }))
    }
    const temps = uploads.map((u) => u.temp.tempPath)
    if (problem) {
      store.discard(temps)
      throw problem
    }
    const committed: string[] = []
    try {
      if (uploads.length === 0) fail(400, 'No se ha enviado ningún archivo (campo Archivos).')
      const stamp = isoTimestamp(now())
      const userId = request.caller!.userId
      const target = carpetaId
      const ids = db.transaction(() => {
        // The folder now (the upload took time: it may have been deleted meanwhile).
        if (target !== null) requireFolder(db, marcaId, target)
        const user = db.prepare("SELECT trim(nombre || ' ' || apellidos) AS n FROM usuarios WHERE id = ?").get(userId) as { n: string } | undefined
        const taken = fileNameKeys(db, marcaId, target)
        const insert = db.prepare(
          `INSERT INTO archivos (id, marca_id, carpeta_id, nombre, nombre_clave, extension, tipo_mime, tamano, sha256, ruta, fecha, usuario_id, usuario_nombre)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
        )
        const setPath = db.prepare('UPDATE archivos SET ruta = ? WHERE id = ?')
        const inserted: number[] = []
        for (const u of uploads) {
          const nombre = nombreLibre(u.name, taken)
          const id = Number(insert.run(nextId(db, 'archivos'), marcaId, target, nombre, nombreClave(nombre), u.extension, u.mime, u.temp.size, u.temp.sha256, stamp, userId, user?.n ?? '').lastInsertRowid)
          const relative = archivoRelativePath(marcaId, id)
          store.commit(u.temp.tempPath, relative)
          committed.push(relative)
          setPath.run(relative, id)
          inserted.push(id)
        }
        return inserted
      })()
      committed.length = 0
      const byId = new Map(fileRows(db, marcaId, ids).map((f) => [f.Id, f]))
      return reply.code(201).send(ids.map((id) => byId.get(id)!))
    } catch (err) {
      // Nothing of a refused or failed upload stays on disk (the transaction rolled the rows back).
      store.discard(temps)
      removeBytes(committed)
      throw err
    }
  })

  app.get('/api/download-file', async (request, reply) => {
    const id = positiveInt((request.query as Record<string, unknown>).archivoId, 'archivoId')
    const row = db.prepare('SELECT id, nombre, tipo_mime, ruta, sha256 FROM archivos WHERE id = ? AND marca_id = ?').get(id, request.marca.id) as
      | { id: number; nombre: string; tipo_mime: string; ruta: string | null; sha256: string | null }
      | undefined
    if (!row) fail(404, `El archivo ${id} no existe.`)
    let size = -1
    if (row.ruta) {
      try {
        size = fs.statSync(store.absolute(row.ruta)).size
      } catch {
        // below
      }
    }
    if (size < 0 || !row.ruta) {
      request.log.warn({ archivo: id, ruta: row.ruta }, 'stored file missing')
      fail(404, `El contenido del archivo ${id} no está disponible.`)
    }
    reply
      .type(row.tipo_mime)
      .header('content-disposition', contentDisposition(row.nombre))
      .header('content-length', size)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
    if (row.sha256) reply.header('repr-digest', `sha-256=:${Buffer.from(row.sha256, 'hex').toString('base64')}:`)
    return reply.send(fs.createReadStream(store.absolute(row.ruta)))
  })

  app.delete('/api/delete-file', async (request, reply) => {
    const id = positiveInt((request.query as Record<string, unknown>).archivoId, 'archivoId')
    const marcaId = request.marca.id
    const ruta = db.transaction(() => {
      const row = db.prepare('SELECT ruta FROM archivos WHERE id = ? AND marca_id = ?').get(id, marcaId) as { ruta: string | null } | undefined
      if (!row) fail(404, `El archivo ${id} no existe.`)
      db.prepare('DELETE FROM archivos WHERE id = ?').run(id)
      return row.ruta
    })()
    removeBytes([ruta])
    return reply.code(204).send()
  })

  app.delete('/api/delete-folders-and-files', async (request) => {
    const body = bodyObject(request.body)
    const marcaId = request.marca.id
    const carpetas = idList(body.Carpetas, 'Carpetas')
    const archivos = idList(body.Archivos, 'Archivos')
    if (carpetas.length === 0 && archivos.length === 0) fail(400, 'No se ha indicado ninguna carpeta ni archivo (Carpetas, Archivos).')
    const { rutas, result } = db.transaction(() => {
      const inList = (ids: readonly number[]) => ids.map(() => '?').join(', ')
      const foundFolders = carpetas.length ? (db.prepare(`SELECT id FROM carpetas WHERE marca_id = ? AND id IN (${inList(carpetas)})`).all(marcaId, ...carpetas) as { id: number }[]) : []
      requireAll(carpetas, foundFolders.map((r) => r.id), 'carpeta')
      const foundFiles = archivos.length ? (db.prepare(`SELECT id FROM archivos WHERE marca_id = ? AND id IN (${inList(archivos)})`).all(marcaId, ...archivos) as { id: number }[]) : []
      requireAll(archivos, foundFiles.map((r) => r.id), 'archivo')

      const folderIds = folderSubtree(db, marcaId, carpetas)
      const fileRowsToGo = db
        .prepare(
          `SELECT id, ruta FROM archivos WHERE marca_id = ? AND (id IN (${archivos.length ? inList(archivos) : 'NULL'}) OR carpeta_id IN (${folderIds.length ? inList(folderIds) : 'NULL'}))`,
        )
        .all(marcaId, ...archivos, ...folderIds) as { id: number; ruta: string | null }[]
      if (fileRowsToGo.length) db.prepare(`DELETE FROM archivos WHERE id IN (${inList(fileRowsToGo.map((r) => r.id))})`).run(...fileRowsToGo.map((r) => r.id))
      // Children first is not needed: padre_id cascades, and every id of the subtree is listed.
      if (folderIds.length) db.prepare(`DELETE FROM carpetas WHERE marca_id = ? AND id IN (${inList(folderIds)})`).run(marcaId, ...folderIds)
      return { rutas: fileRowsToGo.map((r) => r.ruta), result: { CarpetasEliminadas: folderIds.length, ArchivosEliminados: fileRowsToGo.length } }
    })()
    removeBytes(rutas)
    return result
  })

  app.put('/api/move-files', async (request) => {
    const body = bodyObject(request.body)
    const marcaId = request.marca.id
    const archivos = idList(body.Archivos, 'Archivos')
    if (archivos.length === 0) fail(400, 'No se ha indicado ningún archivo (Archivos).')
    if (!('CarpetaToId' in body)) fail(400, 'Falta la carpeta de destino (CarpetaToId; null o 0 para la carpeta raíz).')
    const destino = carpetaParam(body.CarpetaToId, 'CarpetaToId')
    db.transaction(() => {
      if (destino !== null) requireFolder(db, marcaId, destino)
      const rows = fileRows(db, marcaId, archivos)
      requireAll(archivos, rows.map((r) => r.Id), 'archivo')
      const byId = new Map(rows.map((r) => [r.Id, r]))
      const taken = fileNameKeys(db, marcaId, destino)
      const update = db.prepare('UPDATE archivos SET carpeta_id = ?, nombre = ?, nombre_clave = ? WHERE id = ?')
      // Files already there keep their names; the others get a free name in the destination.
      for (const id of archivos) {
        const f = byId.get(id)!
        if (f.CarpetaId === destino) continue
        const nombre = nombreLibre(f.Nombre, taken)
        update.run(destino, nombre, nombreClave(nombre), id)
      }
    })()
    const byId = new Map(fileRows(db, marcaId, archivos).map((f) => [f.Id, f]))
    return archivos.map((id) => byId.get(id)!) satisfies FileItem[]
  })
}
