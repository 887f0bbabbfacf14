import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openReferenceDb } from '../../server/reference-api/db/database'
import { seedIfEmpty } from '../../server/reference-api/db/seed/seed'
import { archivoStore, materializeDemoFiles } from '../../server/reference-api/lib/archivos'
import { DocumentStore } from '../../server/reference-api/lib/documents'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { pdfText } from '../helpers/pdf-text'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW, createFolder, folderView, sha } from './files-support'
import type { Folder, FolderNode } from '../../schemas/business/files'

/** Seeding a fresh database computes every invoice hour by hour: seconds alone, more on a busy machine. */
const SEED_AGAIN_TIMEOUT_MS = 90_000

/** The file area: demo data, folders (create, tree, content, rename), name rules, brands. */

let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller
let grupo: ApiCaller

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
  grupo = admin.forBrand(BRAND_DOMAINS.grupo)
})
afterAll(async () => {
  await api?.close()
})

const tree = async (caller = admin) => {
  const res = await caller.get<FolderNode[]>('/api/folders')
  expect(res.status, res.text).toBe(200)
  return res.body
}
const flatten = (nodes: FolderNode[]): FolderNode[] => nodes.flatMap((n) => [n, ...flatten(n.Hijas)])

describe('demo data', () => {
  it('is deterministic: the same rows and the same bytes when seeded again on the same day', async () => {
    const fresh = openReferenceDb(':memory:')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-archivos-'))
    try {
      await seedIfEmpty(fresh, { brandsDir: path.resolve('brands'), today: new Date('2026-11-01T10:00:00Z') })
      expect(await materializeDemoFiles(fresh, new DocumentStore(dir))).toBe(15)
      const folders = (d: typeof fresh, n: number) => d.prepare('SELECT id, marca_id, padre_id, nombre, fecha FROM carpetas ORDER BY id LIMIT ?').all(n)
      const files = (d: typeof fresh) => d.prepare('SELECT id, marca_id, carpeta_id, nombre, tipo_mime, tamano, sha256, ruta, fecha FROM archivos WHERE semilla IS NOT NULL ORDER BY id').all()
      const n = (fresh.prepare('SELECT COUNT(*) AS n FROM carpetas').get() as { n: number }).n
      expect(n).toBe(15)
      expect(folders(fresh, n)).toEqual(folders(api.db, n))
      expect(files(fresh)).toEqual(files(api.db))
    } finally {
      fresh.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, SEED_AGAIN_TIMEOUT_MS)

  it('every brand has the seeded folders, with Presentaciones inside Formación comercial', async () => {
    for (const brand of Object.values(BRAND_DOMAINS)) {
      const roots = await tree(admin.forBrand(brand))
      const names = roots.map((r) => r.Nombre)
      expect(names).toEqual(expect.arrayContaining(['Documentación legal', 'Formación comercial', 'Plantillas', 'Tarifas 2026']))
      const formacion = roots.find((r) => r.Nombre === 'Formación comercial')!
      expect(formacion.Hijas.map((h) => h.Nombre)).toEqual(['Presentaciones'])
      expect(formacion).toMatchObject({ NumArchivos: 1, NumCarpetas: 1, CarpetaPadreId: null })
      expect(formacion.Hijas[0]).toMatchObject({ CarpetaPadreId: formacion.Id, NumArchivos: 0, NumCarpetas: 0, Hijas: [] })
    }
  })

  it('holds small real files whose bytes match their size and SHA-256', async () => {
    const root = await folderView(admin, null)
    const leeme = root.Archivos.find((a) => a.Nombre === 'Léeme.txt')!
    expect(leeme).toMatchObject({ Extension: 'txt', TipoMime: 'text/plain', CarpetaId: null, Usuario: 'Sistema' })
    const seeded = api.db.prepare("SELECT a.id, a.nombre, a.tamano, a.sha256 FROM archivos a JOIN marcas m ON m.id = a.marca_id WHERE m.dominio = 'energiaverde.es' AND a.semilla IS NOT NULL").all() as {
      id: number
      nombre: string
      tamano: number
      sha256: string
    }[]
    expect(seeded.map((s) => s.nombre).sort()).toEqual(['Carta de bienvenida.txt', 'Guía rápida 2.0TD.txt', 'Léeme.txt', 'Resumen condiciones generales.pdf', 'Tarifas precio fijo 2026.csv'])
    for (const s of seeded) {
      const res = await admin.get('/api/download-file', { archivoId: s.id })
      expect(res.status, res.text).toBe(200)
      expect(res.bytes.length).toBe(s.tamano)
      expect(sha(res.bytes)).toBe(s.sha256)
    }
    const csv = seeded.find((s) => s.nombre.endsWith('.csv'))!
    const csvText = (await admin.get('/api/download-file', { archivoId: csv.id })).text
    expect(csvText.startsWith('\ufeffTarifa;Periodo;Precio energía (€/kWh);Precio potencia (€/kW día);Vigencia desde;Vigencia hasta')).toBe(true)
    expect(csvText).toMatch(/\r\n2\.0TD;P1;0,\d{6};0,\d{6};2026-\d{2}-01;2026-\d{2}-3[01]\r\n/)
    expect(csvText).toMatch(/\r\n2\.0TD;P3;0,\d{6};;/) // 2.0TD: three energy periods, two power periods
    expect(csvText).toMatch(/\r\n6\.1TD;P6;/)
    const pdf = await admin.get('/api/download-file', { archivoId: seeded.find((s) => s.nombre.endsWith('.pdf'))!.id })
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-')
    expect(pdfText(pdf.bytes)).toContain('Resumen de condiciones generales')
  })

  it('writes a missing demo file again, byte for byte', async () => {
    const row = api.db.prepare("SELECT id, ruta, sha256 FROM archivos WHERE semilla = 'condiciones-pdf' ORDER BY id LIMIT 1").get() as { id: number; ruta: string; sha256: string }
    const store = archivoStore({ documentsDir: path.join(api.dataDir, 'documentos') })
    fs.rmSync(store.absolute(row.ruta))
    expect(await materializeDemoFiles(api.db, store)).toBe(1)
    expect(sha(fs.readFileSync(store.absolute(row.ruta)))).toBe(row.sha256)
    expect(await materializeDemoFiles(api.db, store)).toBe(0)
  })
})

describe('create, tree, content', () => {
  let obras: Folder
  let sub: Folder

  it('creates a folder at the root (201) and one inside it', async () => {
    const res = await admin.post<Folder>('/api/folder/create', { Nombre: '  Obras 2026  ' })
    expect(res.status, res.text).toBe(201)
    obras = res.body
    expect(obras).toEqual({ Id: expect.any(Number), Nombre: 'Obras 2026', CarpetaPadreId: null, NumArchivos: 0, NumCarpetas: 0, Fecha: '2026-11-21T10:00:00Z' })
    sub = await createFolder(admin, 'Fotos', obras.Id)
    expect(sub).toMatchObject({ Nombre: 'Fotos', CarpetaPadreId: obras.Id })
    const deeper = await createFolder(agente, 'Antes de la obra', sub.Id) // any signed-in user
    expect(deeper.CarpetaPadreId).toBe(sub.Id)
    // CarpetaPadreId 0 (or "0", or absent) is the root
    expect((await admin.post<Folder>('/api/folder/create', { Nombre: 'Raíz con cero', CarpetaPadreId: 0 })).body.CarpetaPadreId).toBeNull()
    expect((await admin.post<Folder>('/api/folder/create', { Nombre: 'Raíz con texto', CarpetaPadreId: '0' })).body.CarpetaPadreId).toBeNull()
  })

  it('shows the tree nested and sorted by name, with the counts', async () => {
    const roots = await tree()
    const names = roots.map((r) => r.Nombre)
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'es', { sensitivity: 'base' })))
    const node = roots.find((r) => r.Id === obras.Id)!
    expect(node).toMatchObject({ Nombre: 'Obras 2026', NumCarpetas: 1, NumArchivos: 0 })
    expect(node.Hijas).toHaveLength(1)
    expect(node.Hijas[0]).toMatchObject({ Id: sub.Id, NumCarpetas: 1 })
    expect(node.Hijas[0]!.Hijas[0]).toMatchObject({ Nombre: 'Antes de la obra', Hijas: [] })
    // every folder exactly once
    const all = flatten(roots)
    expect(new Set(all.map((f) => f.Id)).size).toBe(all.length)
    expect(all.length).toBe((api.db.prepare("SELECT COUNT(*) AS n FROM carpetas c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es'").get() as { n: number }).n)
  })

  it('gives a folder with its path from the root, its subfolders and files', async () => {
    const deep = (await folderView(admin, sub.Id)).Carpetas[0]!
    const view = await folderView(admin, deep.Id)
    expect(view.Carpeta).toMatchObject({ Id: deep.Id, Nombre: 'Antes de la obra' })
    expect(view.Ruta).toEqual([
      { Id: obras.Id, Nombre: 'Obras 2026' },
      { Id: sub.Id, Nombre: 'Fotos' },
      { Id: deep.Id, Nombre: 'Antes de la obra' },
    ])
    expect(view.Carpetas).toEqual([])
    expect(view.Archivos).toEqual([])
    const top = await folderView(admin, obras.Id)
    expect(top.Carpetas.map((c) => c.Id)).toEqual([sub.Id])
    expect(top.Ruta).toEqual([{ Id: obras.Id, Nombre: 'Obras 2026' }])
  })

  it('gives the root for id 0 or no id', async () => {
    const root = await folderView(admin, null)
    expect(root.Carpeta).toBeNull()
    expect(root.Ruta).toEqual([])
    expect(root.Carpetas.some((c) => c.Id === obras.Id)).toBe(true)
    expect(root.Carpetas.every((c) => c.CarpetaPadreId === null)).toBe(true)
    const noId = await admin.get<typeof root>('/api/folder')
    expect(noId.body).toEqual(root)
  })

  it('answers 404 for an unknown folder and 400 for a malformed id', async () => {
    const unknown = await admin.get('/api/folder', { id: 999999 })
    expect(unknown.status).toBe(404)
    expect(unknown.text).toBe('La carpeta 999999 no existe.')
    expect((await admin.get('/api/folder', { id: 'abc' })).status).toBe(400)
    expect((await admin.get('/api/folder', { id: -3 })).status).toBe(400)
    expect((await admin.post('/api/folder/create', { Nombre: 'Huérfana', CarpetaPadreId: 999999 })).status).toBe(404)
  })

  it('refuses a call without a token', async () => {
    const res = await fetch(`${api.url}/api/folders`, { headers: { 'x-brand-domain': BRAND_DOMAINS.verde } })
    expect(res.status).toBe(401)
  })
})

describe('name rules', () => {
  it('accepts 1–100 characters, trimmed, in any script', async () => {
    expect((await createFolder(admin, 'x'.repeat(100))).Nombre).toHaveLength(100)
    expect((await createFolder(admin, 'Ñandú — año 2026 (copia) #1 & más')).Nombre).toBe('Ñandú — año 2026 (copia) #1 & más')
    expect((await createFolder(admin, '...tres puntos')).Nombre).toBe('...tres puntos')
  })

  it.each([
    ['', 'Falta el nombre de la carpeta (Nombre).'],
    ['   ', 'Falta el nombre de la carpeta (Nombre).'],
    ['y'.repeat(101), 'El nombre de la carpeta no puede tener más de 100 caracteres.'],
    ['.', 'El nombre de la carpeta no puede ser «.» ni «..».'],
    ['..', 'El nombre de la carpeta no puede ser «.» ni «..».'],
  ])('refuses %j with 400', async (nombre, message) => {
    const res = await admin.post('/api/folder/create', { Nombre: nombre })
    expect(res.status).toBe(400)
    expect(res.text).toBe(message)
  })

  it.each(['a/b', 'a\\b', 'a:b', 'a*b', 'a?b', 'a"b', 'a<b', 'a>b', 'a|b', '../../etc', 'a\u0000b', 'tab\there', 'salto\nde línea'])('refuses %j (reserved or control characters)', async (nombre) => {
    const res = await admin.post('/api/folder/create', { Nombre: nombre })
    expect(res.status).toBe(400)
    expect(res.text).toMatch(/no puede contener/)
  })

  it('refuses a missing, non-text or non-object body', async () => {
    expect((await admin.post('/api/folder/create', {})).status).toBe(400)
    expect((await admin.post('/api/folder/create', { Nombre: 12 })).status).toBe(400)
    expect((await admin.post('/api/folder/create', [])).status).toBe(400)
    const bad = await admin.call('POST', '/api/folder/create', { headers: { 'content-type': 'application/json' }, body: undefined })
    expect(bad.status).toBe(400)
  })

  it('keeps names unique among siblings, ignoring case and in any script (409)', async () => {
    const parent = await createFolder(admin, 'Únicos')
    await createFolder(admin, 'Éxito', parent.Id)
    for (const clash of ['Éxito', 'éxito', 'ÉXITO', ' éxito ']) {
      const res = await admin.post('/api/folder/create', { Nombre: clash, CarpetaPadreId: parent.Id })
      expect(res.status).toBe(409)
      expect(res.text).toBe('Ya existe una carpeta llamada «Éxito» en esta carpeta.')
    }
    // decomposed accents are the same name (NFC)
    expect((await admin.post('/api/folder/create', { Nombre: 'E\u0301xito', CarpetaPadreId: parent.Id })).status).toBe(409)
    // the seeded root folder, from the root
    const root = await admin.post('/api/folder/create', { Nombre: 'tarifas 2026' })
    expect(root.status).toBe(409)
    expect(root.text).toBe('Ya existe una carpeta llamada «Tarifas 2026» en la carpeta raíz.')
    // the same name elsewhere is fine
    expect((await admin.post('/api/folder/create', { Nombre: 'Éxito' })).status).toBe(201)
  })
})

describe('rename', () => {
  it('renames (200, the folder) with the same rules', async () => {
    const parent = await createFolder(admin, 'Para renombrar')
    const a = await createFolder(admin, 'Borrador', parent.Id)
    await createFolder(admin, 'Definitivo', parent.Id)
    const ok = await admin.put<Folder>('/api/rename-folder', undefined, { carpetaId: a.Id, newName: 'Versión 2' })
    expect(ok.status, ok.text).toBe(200)
    expect(ok.body).toEqual({ ...a, Nombre: 'Versión 2' })
    expect((await folderView(admin, parent.Id)).Carpetas.map((c) => c.Nombre)).toEqual(['Definitivo', 'Versión 2'])
    // only its case changes: not a clash with itself
    expect((await admin.put<Folder>('/api/rename-folder', undefined, { carpetaId: a.Id, newName: 'VERSIÓN 2' })).body.Nombre).toBe('VERSIÓN 2')
    const clash = await admin.put('/api/rename-folder', undefined, { carpetaId: a.Id, newName: 'definitivo' })
    expect(clash.status).toBe(409)
    expect(clash.text).toBe('Ya existe una carpeta llamada «Definitivo» en esta carpeta.')
    expect((await admin.put('/api/rename-folder', undefined, { carpetaId: a.Id, newName: 'a/b' })).status).toBe(400)
    expect((await admin.put('/api/rename-folder', undefined, { carpetaId: a.Id, newName: '..' })).status).toBe(400)
    expect((await admin.put('/api/rename-folder', undefined, { carpetaId: a.Id })).status).toBe(400)
    expect((await admin.put('/api/rename-folder', undefined, { newName: 'x' })).status).toBe(400)
    const unknown = await admin.put('/api/rename-folder', undefined, { carpetaId: 999999, newName: 'x' })
    expect(unknown.status).toBe(404)
    expect(unknown.text).toBe('La carpeta 999999 no existe.')
    // a JSON content type with an empty body is no error (the parameters go in the query)
    const emptyJson = await admin.call<Folder>('PUT', '/api/rename-folder', { query: { carpetaId: a.Id, newName: 'Final' }, headers: { 'content-type': 'application/json' } })
    expect(emptyJson.status, emptyJson.text).toBe(200)
    expect(emptyJson.body.Nombre).toBe('Final')
  })
})

describe('brands', () => {
  it('a folder of one brand does not exist for another (404 everywhere)', async () => {
    const mine = await createFolder(admin, 'Solo Energía Verde')
    expect((await grupo.get('/api/folder', { id: mine.Id })).status).toBe(404)
    expect((await grupo.put('/api/rename-folder', undefined, { carpetaId: mine.Id, newName: 'Robada' })).status).toBe(404)
    expect((await grupo.post('/api/folder/create', { Nombre: 'Dentro', CarpetaPadreId: mine.Id })).status).toBe(404)
    expect((await grupo.delete('/api/delete-folders-and-files', { Carpetas: [mine.Id] })).status).toBe(404)
    expect((await grupo.post('/api/download-folders-files', { CarpetaIds: [mine.Id] })).status).toBe(404)
    expect(flatten(await tree(grupo)).some((f) => f.Id === mine.Id)).toBe(false)
    // the same name is free in the other brand
    expect((await grupo.post('/api/folder/create', { Nombre: 'Solo Energía Verde' })).status).toBe(201)
    expect((await folderView(admin, mine.Id)).Carpeta?.Nombre).toBe('Solo Energía Verde')
  })
})
