import type { ZipEntryData } from 'archiver'
import type { FastifyInstance } from 'fastify'
import fs from 'node:fs'
import { COMPRIMIDOS, archivoStore, nombreLibre } from '../../lib/archivos'
import { isoDate } from '../../lib/catalogos'
import type { ApiContext } from '../../lib/context'
import { contentDisposition } from '../../lib/documents'
import { fail } from '../../lib/http'
import { createZip } from '../../lib/zip'
import { bodyObject } from '../business/shared'
import { byName, folderSubtree, idList, requireAll } from './shared'

interface FolderRow {
  Id: number
  Nombre: string
  padre_id: number | null
  fecha: string
}

interface FileRow {
  Id: number
  Nombre: string
  carpeta_id: number | null
  extension: string
  ruta: string | null
  fecha: string
}

type Entry = { kind: 'dir'; name: string; fecha: string } | { kind: 'file'; name: string; fecha: string; path: string; store: boolean }

/**
 * `POST /api/download-folders-files`: a selection of files and folders as one streamed zip.
 * Selected files go at the top; each selected folder becomes a top folder holding its whole
 * content (subfolders kept, empty ones too). Anything inside a selected folder is not repeated
 * at the top. Names that meet in one place (a file and a folder, or files of different
 * folders at the top) get ` (2)`, ` (3)`… as on upload.
 */
export async function zipRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts
  const store = archivoStore(opts)

  app.post('/api/download-folders-files', async (request, reply) => {
    const body = bodyObject(request.body)
    const marcaId = request.marca.id
    const archivoIds = idList(body.ArchivoIds, 'ArchivoIds')
    const carpetaIds = idList(body.CarpetaIds, 'CarpetaIds')
    if (archivoIds.length === 0 && carpetaIds.length === 0) fail(400, 'No se ha seleccionado ningún archivo ni carpeta (ArchivoIds, CarpetaIds).')

    const folders = db.prepare('SELECT id AS Id, nombre AS Nombre, padre_id, fecha FROM carpetas WHERE marca_id = ?').all(marcaId) as FolderRow[]
    const folderById = new Map(folders.map((f) => [f.Id, f]))
    requireAll(carpetaIds, carpetaIds.filter((id) => folderById.has(id)), 'carpeta')
    const fileSelect = 'SELECT id AS Id, nombre AS Nombre, carpeta_id, extension, ruta, fecha FROM archivos WHERE marca_id = ?'
    const chosenFiles = archivoIds.length
      ? (db.prepare(`${fileSelect} AND id IN (${archivoIds.map(() => '?').join(', ')})`).all(marcaId, ...archivoIds) as FileRow[])
      : []
    requireAll(archivoIds, chosenFiles.map((f) => f.Id), 'archivo')

    // Drop what a selected folder already holds.
    const selected = new Set(carpetaIds)
    const insideSelected = (folderId: number | null): boolean => {
      for (let id = folderId; id !== null; id = folderById.get(id)?.padre_id ?? null) if (selected.has(id)) return true
      return false
    }
    const topFolders = carpetaIds.map((id) => folderById.get(id)!).filter((f) => !insideSelected(f.padre_id))
    const topFiles = chosenFiles.filter((f) => !insideSelected(f.carpeta_id))

    const subtree = folderSubtree(db, marcaId, topFolders.map((f) => f.Id))
    const contained = subtree.length ? (db.prepare(`${fileSelect} AND carpeta_id IN (${subtree.map(() => '?').join(', ')})`).all(marcaId, ...subtree) as FileRow[]) : []
    const childFolders = new Map<number, FolderRow[]>()
    for (const f of folders) if (f.padre_id !== null) childFolders.set(f.padre_id, [...(childFolders.get(f.padre_id) ?? []), f])
    const filesOf = new Map<number, FileRow[]>()
    for (const f of contained) filesOf.set(f.carpeta_id!, [...(filesOf.get(f.carpeta_id!) ?? []), f])

    const entries: Entry[] = []
    const addFile = (f: FileRow, name: string) => {
      if (!f.ruta) fail(404, `El contenido del archivo ${f.Id} no está disponible.`)
      const path = store.absolute(f.ruta)
      if (!fs.existsSync(path)) {
        request.log.warn({ archivo: f.Id, ruta: f.ruta }, 'stored file missing')
        fail(404, `El contenido del archivo ${f.Id} no está disponible.`)
      }
      entries.push({ kind: 'file', name, fecha: f.fecha, path, store: COMPRIMIDOS.has(f.extension) })
    }
    const addFolder = (folder: FolderRow, prefix: string) => {
      entries.push({ kind: 'dir', name: prefix, fecha: folder.fecha })
      const taken = new Set<string>()
      for (const sub of [...(childFolders.get(folder.Id) ?? [])].sort(byName)) addFolder(sub, `${prefix}${nombreLibre(sub.Nombre, taken, false)}/`)
      for (const f of [...(filesOf.get(folder.Id) ?? [])].sort(byName)) addFile(f, `${prefix}${nombreLibre(f.Nombre, taken)}`)
    }
    const top = new Set<string>()
    for (const folder of [...topFolders].sort(byName)) addFolder(folder, `${nombreLibre(folder.Nombre, top, false)}/`)
    for (const f of [...topFiles].sort(byName)) addFile(f, nombreLibre(f.Nombre, top))

    // Everything is checked: from here on the answer is a stream.
    const zip = createZip()
    zip.on('warning', (err) => request.log.warn({ err }, 'zip warning'))
    zip.on('error', (err) => request.log.error({ err }, 'zip failed'))
    for (const e of entries) {
      const data: ZipEntryData = { name: e.name, date: new Date(e.fecha), mode: e.kind === 'dir' ? 0o755 : 0o644 }
      if (e.kind === 'dir') zip.append(Buffer.alloc(0), { ...data, type: 'directory' })
      else zip.file(e.path, { ...data, store: e.store } as ZipEntryData)
    }
    void zip.finalize().catch(() => {
      // reported by the 'error' listener
    })
    return reply
      .type('application/zip')
      .header('content-disposition', contentDisposition(`archivos-${isoDate(now())}.zip`))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(zip)
  })
}
