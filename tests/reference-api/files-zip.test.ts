import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, NOW, bytesOf, createFolder, sha, upload } from './files-support'
import type { FileItem, Folder } from '../../schemas/business/files'

/** `POST /api/download-folders-files`: a selection of files and folders as one zip. */

let api: RunningReferenceApi
let admin: ApiCaller

/**
 * Obras/                       (selected)
 *   plano.pdf
 *   Fotos/
 *     fachada.jpg
 *     Detalle/  (empty)
 *   Fotos.txt                  (a file named like a folder beside it)
 * Sueltos/
 *   presupuesto.xlsx           (selected)
 *   notas.txt                  (selected)
 * Otros/
 *   notas.txt                  (selected: the same name as the other one)
 */
let obras: Folder
let fotos: Folder
let sueltos: Folder
let otros: Folder
const bytes = {
  plano: bytesOf(150_000, 11),
  fachada: bytesOf(70_000, 12),
  fotosTxt: Buffer.from('lista de fotos'),
  presupuesto: bytesOf(9_000, 13),
  notas1: Buffer.from('Notas de Sueltos — ñandú €'),
  notas2: Buffer.from('Notas de Otros'),
}
const ids: Record<string, number> = {}

const zipOf = async (body: unknown) => {
  const res = await admin.post('/api/download-folders-files', body)
  return { res, entries: res.status === 200 ? unzipSync(new Uint8Array(res.bytes)) : {} }
}

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  obras = await createFolder(admin, 'Obras Ñ')
  fotos = await createFolder(admin, 'Fotos', obras.Id)
  await createFolder(admin, 'Detalle', fotos.Id)
  sueltos = await createFolder(admin, 'Sueltos')
  otros = await createFolder(admin, 'Otros')
  const put = async (folder: Folder, files: { name: string; bytes: Buffer; key: string }[]) => {
    const res = await upload(admin, folder.Id, files)
    expect(res.status, res.text).toBe(201)
    res.body.forEach((a: FileItem, i) => (ids[files[i]!.key] = a.Id))
  }
  await put(obras, [
    { name: 'plano.pdf', bytes: bytes.plano, key: 'plano' },
    { name: 'Fotos.txt', bytes: bytes.fotosTxt, key: 'fotosTxt' },
  ])
  await put(fotos, [{ name: 'fachada.jpg', bytes: bytes.fachada, key: 'fachada' }])
  await put(sueltos, [
    { name: 'presupuesto.xlsx', bytes: bytes.presupuesto, key: 'presupuesto' },
    { name: 'notas.txt', bytes: bytes.notas1, key: 'notas1' },
  ])
  await put(otros, [{ name: 'notas.txt', bytes: bytes.notas2, key: 'notas2' }])
})
afterAll(async () => {
  await api?.close()
})

describe('zip download', () => {
  it('streams a zip with the files and the folders with their whole content, same names and bytes', async () => {
    const { res, entries } = await zipOf({ ArchivoIds: [ids.presupuesto, ids.notas1, ids.notas2], CarpetaIds: [obras.Id] })
    expect(res.status, res.text).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/zip')
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="archivos-2026-11-21.zip"; filename*=UTF-8\'\'archivos-2026-11-21.zip')
    expect(Object.keys(entries).sort()).toEqual(
      [
        'Obras Ñ/',
        'Obras Ñ/Fotos/',
        'Obras Ñ/Fotos/Detalle/',
        'Obras Ñ/Fotos/fachada.jpg',
        'Obras Ñ/Fotos.txt',
        'Obras Ñ/plano.pdf',
        'presupuesto.xlsx',
        'notas.txt',
        'notas (2).txt',
      ].sort(),
    )
    const same = (name: string, b: Buffer) => expect(sha(entries[name]!), name).toBe(sha(b))
    same('Obras Ñ/plano.pdf', bytes.plano)
    same('Obras Ñ/Fotos/fachada.jpg', bytes.fachada)
    same('Obras Ñ/Fotos.txt', bytes.fotosTxt)
    same('presupuesto.xlsx', bytes.presupuesto)
    // the two notas.txt: both kept, the older upload (lower id) first
    same('notas.txt', bytes.notas1)
    same('notas (2).txt', bytes.notas2)
    expect(Buffer.from(entries['notas.txt']!).toString('utf8')).toBe('Notas de Sueltos — ñandú €')
    expect(entries['Obras Ñ/Fotos/Detalle/']!.length).toBe(0)
  })

  it('does not repeat what a selected folder already holds', async () => {
    const { res, entries } = await zipOf({ ArchivoIds: [ids.fachada, ids.plano], CarpetaIds: [obras.Id, fotos.Id] })
    expect(res.status).toBe(200)
    expect(Object.keys(entries).sort()).toEqual(['Obras Ñ/', 'Obras Ñ/Fotos.txt', 'Obras Ñ/Fotos/', 'Obras Ñ/Fotos/Detalle/', 'Obras Ñ/Fotos/fachada.jpg', 'Obras Ñ/plano.pdf'].sort())
  })

  it('takes only files, or only folders (an empty folder too)', async () => {
    const files = await zipOf({ ArchivoIds: [ids.fachada] })
    expect(Object.keys(files.entries)).toEqual(['fachada.jpg'])
    expect(sha(files.entries['fachada.jpg']!)).toBe(sha(bytes.fachada))
    const empty = await createFolder(admin, 'Vacía')
    const folders = await zipOf({ CarpetaIds: [empty.Id], ArchivoIds: [] })
    expect(Object.keys(folders.entries)).toEqual(['Vacía/'])
  })

  it('includes the seeded files', async () => {
    const docs = (await admin.get<{ Carpetas: Folder[] }>('/api/folder', { id: 0 })).body.Carpetas.find((c) => c.Nombre === 'Documentación legal')!
    const { entries } = await zipOf({ CarpetaIds: [docs.Id] })
    const pdf = entries['Documentación legal/Resumen condiciones generales.pdf']!
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-')
  })

  it('refuses an empty selection (400) and unknown ids (404)', async () => {
    for (const body of [{ ArchivoIds: [], CarpetaIds: [] }, {}]) {
      const res = await admin.post('/api/download-folders-files', body)
      expect(res.status).toBe(400)
      expect(res.text).toBe('No se ha seleccionado ningún archivo ni carpeta (ArchivoIds, CarpetaIds).')
    }
    expect((await admin.post('/api/download-folders-files', { ArchivoIds: 'todos' })).status).toBe(400)
    const unknownFile = await admin.post('/api/download-folders-files', { ArchivoIds: [ids.plano, 999999] })
    expect(unknownFile.status).toBe(404)
    expect(unknownFile.text).toBe('El archivo 999999 no existe.')
    const unknownFolders = await admin.post('/api/download-folders-files', { CarpetaIds: [999998, 999999] })
    expect(unknownFolders.status).toBe(404)
    expect(unknownFolders.text).toBe('Las carpetas 999998 y 999999 no existen.')
    // another brand's ids do not exist here
    const other = await admin.forBrand(BRAND_DOMAINS.limpia).post('/api/download-folders-files', { ArchivoIds: [ids.plano] })
    expect(other.status).toBe(404)
  })
})
