import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW, bytesOf, createFolder, filesUnder, folderView, rawUpload, sha, upload } from './files-support'
import type { FileItem, Folder } from '../../schemas/business/files'

/** The file area: upload (multipart, streamed to disk), download, names, limits, move, delete. */

const MB = 1024 * 1024
let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller
let marcaId: number
let folder: Folder

const archivosDir = () => path.join(api.dataDir, 'archivos')
/** Stored files of the brand under test (relative to DATA_DIR/archivos), without temp files. */
const stored = () => filesUnder(archivosDir()).filter((p) => !p.startsWith('.tmp'))
const tempFiles = () => filesUnder(path.join(archivosDir(), '.tmp'))
const download = (id: number, caller = admin) => caller.get('/api/download-file', { archivoId: id })
const rowOf = (id: number) => api.db.prepare('SELECT * FROM archivos WHERE id = ?').get(id) as Record<string, unknown> | undefined

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
  marcaId = (api.db.prepare("SELECT id FROM marcas WHERE dominio = 'energiaverde.es'").get() as { id: number }).id
  folder = await createFolder(admin, 'Subidas')
})
afterAll(async () => {
  await api?.close()
})

describe('upload and download', () => {
  const pdf = bytesOf(40_000, 7)
  const csv = Buffer.from('\ufeffCUPS;Consumo\r\nES0021000000000001RK;3200\r\n', 'utf8')
  const png = bytesOf(1234, 9)
  let files: FileItem[]

  it('stores several files (201, in upload order) on disk by id, with size and SHA-256', async () => {
    const before = stored()
    const res = await upload(admin, folder.Id, [
      { name: 'Informe técnico.pdf', bytes: pdf, type: 'application/pdf' },
      { name: 'consumos.CSV', bytes: csv, type: 'text/csv' },
      { name: 'plano.png', bytes: png, type: 'application/x-evil' },
    ])
    expect(res.status, res.text).toBe(201)
    files = res.body
    expect(files.map((f) => f.Nombre)).toEqual(['Informe técnico.pdf', 'consumos.CSV', 'plano.png'])
    expect(files[0]).toEqual({ Id: expect.any(Number), Nombre: 'Informe técnico.pdf', Extension: 'pdf', TipoMime: 'application/pdf', Tamano: pdf.length, CarpetaId: folder.Id, Fecha: '2026-11-21T10:00:00Z', Usuario: expect.stringMatching(/\S/) })
    // the type comes from the extension, never from the client
    expect(files[1]).toMatchObject({ Extension: 'csv', TipoMime: 'text/csv', Tamano: csv.length })
    expect(files[2]).toMatchObject({ Extension: 'png', TipoMime: 'image/png' })
    const after = stored()
    expect(after.filter((p) => !before.includes(p))).toEqual(files.map((f) => path.join(String(marcaId), String(f.Id))).sort())
    expect(rowOf(files[0]!.Id)).toMatchObject({ sha256: sha(pdf), ruta: `${marcaId}/${files[0]!.Id}` })
    expect(tempFiles()).toEqual([])
    const view = await folderView(admin, folder.Id)
    expect(view.Archivos.map((f) => f.Nombre)).toEqual(['consumos.CSV', 'Informe técnico.pdf', 'plano.png'])
    expect(view.Carpeta?.NumArchivos).toBe(3)
  })

  it('downloads each byte-identical, with its type and its original name (RFC 5987)', async () => {
    for (const [f, bytes] of [
      [files[0]!, pdf],
      [files[1]!, csv],
      [files[2]!, png],
    ] as const) {
      const res = await download(f.Id)
      expect(res.status).toBe(200)
      expect(res.bytes.equals(bytes)).toBe(true)
      expect(res.headers.get('content-type')).toBe(f.TipoMime)
      expect(res.headers.get('content-length')).toBe(String(bytes.length))
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('repr-digest')).toBe(`sha-256=:${Buffer.from(sha(bytes), 'hex').toString('base64')}:`)
    }
    expect((await download(files[0]!.Id)).headers.get('content-disposition')).toBe(`attachment; filename="Informe tecnico.pdf"; filename*=UTF-8''Informe%20t%C3%A9cnico.pdf`)
    expect((await download(files[1]!.Id)).headers.get('content-disposition')).toBe(`attachment; filename="consumos.CSV"; filename*=UTF-8''consumos.CSV`)
  })

  it('uploads to the root with CarpetaId empty, 0 or absent, and takes CarpetaId after the files too', async () => {
    for (const id of ['', '0', null] as const) {
      const res = await upload(admin, id, [{ name: `raiz-${id ?? 'sin'}.txt`, bytes: Buffer.from('hola') }])
      expect(res.status, res.text).toBe(201)
      expect(res.body[0]!.CarpetaId).toBeNull()
    }
    const late = await upload(admin, folder.Id, [{ name: 'tarde.txt', bytes: Buffer.from('tarde') }], { carpetaLast: true })
    expect(late.status, late.text).toBe(201)
    expect(late.body[0]!.CarpetaId).toBe(folder.Id)
  })

  it('lets any signed-in user upload; the uploader is named', async () => {
    const res = await upload(agente, folder.Id, [{ name: 'del agente.txt', bytes: Buffer.from('x') }])
    expect(res.status).toBe(201)
    expect(res.body[0]!.Usuario).toBe('Alberto Agente Comercial')
  })

  it('answers 404 for unknown files and 400 for a malformed id', async () => {
    const res = await download(999999)
    expect(res.status).toBe(404)
    expect(res.text).toBe('El archivo 999999 no existe.')
    expect((await download(0)).status).toBe(400)
    expect((await admin.get('/api/download-file', { archivoId: 'x' })).status).toBe(400)
  })
})

describe('names', () => {
  it('adds (2), (3)… before the extension when the name is taken, ignoring case', async () => {
    const f = await createFolder(admin, 'Duplicados')
    const first = await upload(admin, f.Id, [{ name: 'Contrato.pdf', bytes: Buffer.from('1') }])
    expect(first.body[0]!.Nombre).toBe('Contrato.pdf')
    const again = await upload(admin, f.Id, [
      { name: 'Contrato.pdf', bytes: Buffer.from('2') },
      { name: 'contrato.PDF', bytes: Buffer.from('3') },
      { name: 'Contrato.pdf', bytes: Buffer.from('4') },
    ])
    expect(again.status, again.text).toBe(201)
    expect(again.body.map((a) => a.Nombre)).toEqual(['Contrato (2).pdf', 'contrato (3).PDF', 'Contrato (4).pdf'])
    // each keeps its own bytes
    expect((await download(again.body[1]!.Id)).text).toBe('3')
    // a name that already carries a suffix
    expect((await upload(admin, f.Id, [{ name: 'Contrato (2).pdf', bytes: Buffer.from('5') }])).body[0]!.Nombre).toBe('Contrato (2) (2).pdf')
    // another folder: no clash
    expect((await upload(admin, folder.Id, [{ name: 'Contrato.pdf', bytes: Buffer.from('6') }])).body[0]!.Nombre).toBe('Contrato.pdf')
  })

  it('stores path-like and odd names safely: the last segment, sanitised, never a path on disk', async () => {
    const outside = path.join(api.dataDir, 'etc')
    const before = stored()
    const res = await rawUpload(admin, folder.Id, [
      { rawName: '../../etc/passwd.txt', bytes: Buffer.from('root:x:0:0') },
      { rawName: '..\\..\\windows\\system.ini.txt', bytes: Buffer.from('[boot]') },
      { rawName: 'nul\u0000byte.txt', bytes: Buffer.from('nul') },
      { rawName: '.oculto.txt', bytes: Buffer.from('dot') },
      { rawName: `${'largo-'.repeat(60)}.txt`, bytes: Buffer.from('largo') },
      { rawName: 'ca<>:|?*rac.txt', bytes: Buffer.from('chars') },
    ])
    expect(res.status, res.text).toBe(201)
    const names = res.body!.map((a) => a.Nombre)
    expect(names[0]).toBe('passwd.txt')
    expect(names[1]).toBe('system.ini.txt')
    expect(names[2]).toBe('nulbyte.txt')
    expect(names[3]).toBe('oculto.txt')
    expect(names[4]!.length).toBeLessThanOrEqual(120)
    expect(names[4]!.endsWith('.txt')).toBe(true)
    expect(names[5]).toBe('carac.txt')
    // oxlint-disable-next-line no-control-regex -- a NUL in a stored name is what this asserts against
    for (const n of names) expect(n).not.toMatch(/[/\\\u0000<>:|?*]/)
    // on disk: only <marca>/<id> under DATA_DIR/archivos, nothing elsewhere
    expect(stored().filter((p) => !before.includes(p))).toEqual(res.body!.map((a) => path.join(String(marcaId), String(a.Id))).sort())
    expect(fs.existsSync(outside)).toBe(false)
    expect(fs.existsSync(path.join(os.tmpdir(), 'passwd.txt'))).toBe(false)
    expect(fs.readFileSync('/etc/passwd', 'utf8')).not.toBe('root:x:0:0')
    expect((await download(res.body![0]!.Id)).text).toBe('root:x:0:0')
  })

  it('refuses a name that leaves no accepted extension (../../etc/passwd)', async () => {
    const before = stored()
    const res = await rawUpload(admin, folder.Id, [{ rawName: '../../etc/passwd', bytes: Buffer.from('root:x:0:0') }])
    expect(res.status).toBe(400)
    expect(res.text).toMatch(/^El archivo «passwd» no es de un tipo admitido/)
    expect(stored()).toEqual(before)
    expect(tempFiles()).toEqual([])
  })
})

describe('refusals store nothing', () => {
  it('refuses a type not accepted (400) and keeps none of the call', async () => {
    const before = stored()
    const rows = (api.db.prepare('SELECT COUNT(*) AS n FROM archivos').get() as { n: number }).n
    for (const name of ['virus.exe', 'script.js', 'pagina.html', 'sin-extension', 'imagen.svg']) {
      const res = await upload(admin, folder.Id, [
        { name: 'bueno.pdf', bytes: Buffer.from('%PDF-1.4') },
        { name, bytes: Buffer.from('MZ') },
      ])
      expect(res.status).toBe(400)
      expect(res.text).toMatch(/no es de un tipo admitido \(pdf, jpg, jpeg, png, gif, webp, txt, csv, doc, docx, xls, xlsx, ppt, pptx, odt, ods, zip, eml\)\.$/)
    }
    expect(stored()).toEqual(before)
    expect(tempFiles()).toEqual([])
    expect((api.db.prepare('SELECT COUNT(*) AS n FROM archivos').get() as { n: number }).n).toBe(rows)
  })

  it('accepts every listed extension', async () => {
    const exts = ['pdf', 'jpg', 'jpeg', 'png', 'gif', 'webp', 'txt', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'zip', 'eml']
    const f = await createFolder(admin, 'Todos los tipos')
    const res = await upload(admin, f.Id, exts.map((e) => ({ name: `archivo.${e}`, bytes: Buffer.from(e) })))
    expect(res.status, res.text).toBe(201)
    expect(res.body.map((a) => a.Extension)).toEqual(exts)
    expect(res.body.find((a) => a.Extension === 'eml')!.TipoMime).toBe('message/rfc822')
    expect(res.body.find((a) => a.Extension === 'xlsx')!.TipoMime).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
  })

  it('refuses more than 20 files (413)', async () => {
    const before = stored()
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `n${i}.txt`, bytes: Buffer.from(String(i)) }))
    const res = await upload(admin, folder.Id, many)
    expect(res.status).toBe(413)
    expect(res.text).toBe('Como máximo se pueden subir 20 archivos a la vez.')
    expect(stored()).toEqual(before)
    const twenty = await upload(admin, folder.Id, many.slice(0, 20).map((f) => ({ ...f, name: `veinte-${f.name}` })))
    expect(twenty.status, twenty.text).toBe(201)
    expect(twenty.body).toHaveLength(20)
  })

  it('refuses a file over 25 MB (413) and takes one of exactly 25 MB', async () => {
    const before = stored()
    const big = bytesOf(25 * MB + 1, 3)
    const res = await upload(admin, folder.Id, [
      { name: 'pequeño.txt', bytes: Buffer.from('ok') },
      { name: 'enorme.zip', bytes: big },
    ])
    expect(res.status).toBe(413)
    expect(res.text).toMatch(/supera el tamaño máximo de 25 MB\.$/)
    expect(stored()).toEqual(before)
    expect(tempFiles()).toEqual([])

    const exact = bytesOf(25 * MB, 4)
    const ok = await upload(admin, folder.Id, [{ name: 'justo.zip', bytes: exact }])
    expect(ok.status, ok.text).toBe(201)
    expect(ok.body[0]!.Tamano).toBe(25 * MB)
    const back = await download(ok.body[0]!.Id)
    expect(sha(back.bytes)).toBe(sha(exact))
  }, 60_000)

  it('refuses an empty file, no file, a file in another field, a bad or unknown CarpetaId, and a non-multipart call', async () => {
    const before = stored()
    const empty = await upload(admin, folder.Id, [{ name: 'vacio.txt', bytes: Buffer.alloc(0) }])
    expect(empty.status).toBe(400)
    expect(empty.text).toBe('El archivo «vacio.txt» está vacío.')
    const none = await upload(admin, folder.Id, [])
    expect(none.status).toBe(400)
    expect(none.text).toBe('No se ha enviado ningún archivo (campo Archivos).')
    const otherField = await upload(admin, folder.Id, [{ name: 'a.txt', bytes: Buffer.from('a'), field: 'Fichero' }])
    expect(otherField.status).toBe(400)
    expect((await upload(admin, 'abc', [{ name: 'a.txt', bytes: Buffer.from('a') }])).status).toBe(400)
    const unknown = await upload(admin, 999999, [{ name: 'a.txt', bytes: Buffer.from('a') }])
    expect(unknown.status).toBe(404)
    expect(unknown.text).toBe('La carpeta 999999 no existe.')
    const unknownLate = await upload(admin, 999999, [{ name: 'a.txt', bytes: Buffer.from('a') }], { carpetaLast: true })
    expect(unknownLate.status).toBe(404)
    const json = await admin.post('/api/save-files', { CarpetaId: folder.Id, Archivos: [] })
    expect(json.status).toBe(400)
    expect(json.text).toMatch(/multipart\/form-data/)
    expect(stored()).toEqual(before)
    expect(tempFiles()).toEqual([])
  })
})

describe('move', () => {
  it('moves files between folders (200, the moved files), renaming clashes as on upload', async () => {
    const from = await createFolder(admin, 'Origen')
    const to = await createFolder(admin, 'Destino')
    const [a, b, c] = (await upload(admin, from.Id, [
      { name: 'acta.pdf', bytes: Buffer.from('acta origen') },
      { name: 'nota.txt', bytes: Buffer.from('nota') },
      { name: 'otra.txt', bytes: Buffer.from('otra') },
    ])).body as [FileItem, FileItem, FileItem]
    const [existing] = (await upload(admin, to.Id, [{ name: 'Acta.pdf', bytes: Buffer.from('acta destino') }])).body as [FileItem]
    const res = await admin.put<FileItem[]>('/api/move-files', { Archivos: [a.Id, b.Id], CarpetaToId: to.Id })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toEqual([
      { ...a, Nombre: 'acta (2).pdf', CarpetaId: to.Id },
      { ...b, CarpetaId: to.Id },
    ])
    expect((await folderView(admin, to.Id)).Archivos.map((f) => f.Id).sort()).toEqual([existing.Id, a.Id, b.Id].sort())
    expect((await folderView(admin, from.Id)).Archivos.map((f) => f.Id)).toEqual([c.Id])
    // the bytes did not move on disk (stored by id) and still download
    expect((await download(a.Id)).text).toBe('acta origen')
    expect((await download(existing.Id)).text).toBe('acta destino')
    // to the root with null or 0; a file already there stays as it is
    const root = await admin.put<FileItem[]>('/api/move-files', { Archivos: [c.Id], CarpetaToId: null })
    expect(root.body[0]!.CarpetaId).toBeNull()
    const zero = await admin.put<FileItem[]>('/api/move-files', { Archivos: [c.Id, b.Id], CarpetaToId: 0 })
    expect(zero.body.map((f) => [f.Id, f.CarpetaId, f.Nombre])).toEqual([
      [c.Id, null, 'otra.txt'],
      [b.Id, null, 'nota.txt'],
    ])
  })

  it('refuses unknown files or folder (404, nothing moved) and bad bodies (400)', async () => {
    const f = await createFolder(admin, 'Quieta')
    const [a] = (await upload(admin, f.Id, [{ name: 'quieto.txt', bytes: Buffer.from('q') }])).body as [FileItem]
    const unknownFile = await admin.put('/api/move-files', { Archivos: [a.Id, 999998, 999999], CarpetaToId: null })
    expect(unknownFile.status).toBe(404)
    expect(unknownFile.text).toBe('Los archivos 999998 y 999999 no existen.')
    expect((await admin.put('/api/move-files', { Archivos: [a.Id], CarpetaToId: 999999 })).status).toBe(404)
    expect(rowOf(a.Id)!.carpeta_id).toBe(f.Id)
    expect((await admin.put('/api/move-files', { Archivos: [], CarpetaToId: null })).status).toBe(400)
    expect((await admin.put('/api/move-files', { Archivos: [a.Id] })).status).toBe(400)
    expect((await admin.put('/api/move-files', { Archivos: 'todos', CarpetaToId: null })).status).toBe(400)
    expect((await admin.put('/api/move-files', { Archivos: [-1], CarpetaToId: null })).status).toBe(400)
    // a file of another brand does not exist there
    expect((await admin.forBrand(BRAND_DOMAINS.limpia).put('/api/move-files', { Archivos: [a.Id], CarpetaToId: null })).status).toBe(404)
  })
})

describe('delete', () => {
  it('deletes one file (204), its row and its bytes', async () => {
    const [a] = (await upload(admin, folder.Id, [{ name: 'borrar.txt', bytes: Buffer.from('adiós') }])).body as [FileItem]
    const file = path.join(archivosDir(), String(marcaId), String(a.Id))
    expect(fs.existsSync(file)).toBe(true)
    expect((await admin.forBrand(BRAND_DOMAINS.grupo).delete('/api/delete-file', undefined, { archivoId: a.Id })).status).toBe(404)
    const res = await admin.delete('/api/delete-file', undefined, { archivoId: a.Id })
    expect(res.status).toBe(204)
    expect(res.text).toBe('')
    expect(fs.existsSync(file)).toBe(false)
    expect(rowOf(a.Id)).toBeUndefined()
    expect((await download(a.Id)).status).toBe(404)
    expect((await admin.delete('/api/delete-file', undefined, { archivoId: a.Id })).status).toBe(404)
  })

  it('deletes folders with everything inside and chosen files (200, the counts), bytes included', async () => {
    const top = await createFolder(admin, 'Proyecto viejo')
    const mid = await createFolder(admin, 'Fase 1', top.Id)
    const low = await createFolder(admin, 'Anexos', mid.Id)
    await createFolder(admin, 'Vacía', top.Id)
    const inTop = (await upload(admin, top.Id, [{ name: 'resumen.txt', bytes: Buffer.from('r') }])).body
    const inLow = (await upload(admin, low.Id, [
      { name: 'a.txt', bytes: Buffer.from('a') },
      { name: 'b.txt', bytes: Buffer.from('b') },
    ])).body
    const loose = (await upload(admin, folder.Id, [{ name: 'suelto.txt', bytes: Buffer.from('s') }])).body
    const keep = (await upload(admin, folder.Id, [{ name: 'se-queda.txt', bytes: Buffer.from('k') }])).body
    const gone = [...inTop, ...inLow, ...loose].map((f) => path.join(String(marcaId), String(f.Id)))
    for (const p of gone) expect(fs.existsSync(path.join(archivosDir(), p))).toBe(true)

    // an unknown id: 404 and nothing deleted
    const refused = await admin.delete('/api/delete-folders-and-files', { Carpetas: [top.Id, 999999], Archivos: [] })
    expect(refused.status).toBe(404)
    expect(refused.text).toBe('La carpeta 999999 no existe.')
    expect((await folderView(admin, top.Id)).Carpetas).toHaveLength(2)

    // a file inside a deleted folder, listed too, counts once
    const res = await admin.delete<{ CarpetasEliminadas: number; ArchivosEliminados: number }>('/api/delete-folders-and-files', {
      Carpetas: [top.Id, mid.Id],
      Archivos: [loose[0]!.Id, inLow[0]!.Id],
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toEqual({ CarpetasEliminadas: 4, ArchivosEliminados: 4 })
    for (const p of gone) expect(fs.existsSync(path.join(archivosDir(), p))).toBe(false)
    expect(fs.existsSync(path.join(archivosDir(), String(marcaId), String(keep[0]!.Id)))).toBe(true)
    for (const id of [top.Id, mid.Id, low.Id]) expect((await admin.get('/api/folder', { id })).status).toBe(404)
    expect((api.db.prepare('SELECT COUNT(*) AS n FROM archivos WHERE id IN (?, ?, ?, ?)').get(inTop[0]!.Id, inLow[0]!.Id, inLow[1]!.Id, loose[0]!.Id) as { n: number }).n).toBe(0)
  })

  it('refuses an empty selection and malformed bodies (400)', async () => {
    expect((await admin.delete('/api/delete-folders-and-files', { Carpetas: [], Archivos: [] })).status).toBe(400)
    expect((await admin.delete('/api/delete-folders-and-files', {})).status).toBe(400)
    expect((await admin.delete('/api/delete-folders-and-files', { Carpetas: 'x' })).status).toBe(400)
    expect((await admin.delete('/api/delete-folders-and-files')).status).toBe(400)
  })
})
