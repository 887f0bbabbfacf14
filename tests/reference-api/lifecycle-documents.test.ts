import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW } from './business-support'
import { FILES, activeAgent, cups, detail, dni, insertBody, insertContract, pdfText, upload } from './lifecycle-support'
import type { ContractDocument } from '../../schemas/business/contracts'

/** Contract documents: upload (multipart, streamed to disk), list, download. */

let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller
let code: string
let contractId: number
let marcaId: number
let serial = 7000

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')
const docsDir = () => path.join(api.dataDir, 'documentos')
/** Every file under the documents folder (relative paths). */
const storedFiles = (): string[] => {
  const root = docsDir()
  if (!fs.existsSync(root)) return []
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((p) => fs.statSync(path.join(root, p)).isFile()).sort()
}
const list = async (c = code) => {
  const res = await admin.get<ContractDocument[]>('/api/contract/documentos', { contrato: c })
  expect(res.status, res.text).toBe(200)
  return res.body
}
const newDraft = async () => (await insertContract(admin, insertBody({ nif: dni(74000000 + serial), cups: cups(serial++), agenteId: activeAgent(api.db) }))).CodigoContrato

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
  code = await newDraft()
  contractId = (await detail(admin, code)).Id
  marcaId = (api.db.prepare("SELECT id FROM marcas WHERE dominio = 'energiaverde.es'").get() as { id: number }).id
})
afterAll(async () => {
  await api?.close()
})

describe('upload, list, download', () => {
  const pdf = FILES.pdf('DNI anverso y reverso')
  const png = FILES.png()
  let stored: ContractDocument[]

  it('stores two files with their size and SHA-256, named by id on disk', async () => {
    const res = await upload(admin, code, [
      { name: 'DNI Lucía.pdf', bytes: pdf, type: 'application/pdf' },
      { name: 'dni-reverso.PNG', bytes: png, type: 'image/png' },
    ], 'dni')
    expect(res.status, res.text).toBe(201)
    stored = res.body
    expect(stored).toHaveLength(2)
    expect(stored[0]).toMatchObject({ Nombre: 'DNI Lucía.pdf', Tipo: 'dni', TipoNombre: 'Documento de identidad', TipoMime: 'application/pdf', Tamano: pdf.length, Sha256: sha(pdf), Fecha: '2026-11-21T10:00:00Z', Generado: false })
    expect(stored[1]).toMatchObject({ Nombre: 'dni-reverso.PNG', TipoMime: 'image/png', Tamano: png.length, Sha256: sha(png) })
    expect(stored[0]!.Usuario).toMatch(/\S/)
    expect(storedFiles()).toEqual(stored.map((d) => path.join(String(marcaId), String(contractId), String(d.Id))).sort())
    expect((await detail(admin, code)).NumDocumentos).toBe(2)
  })

  it('lists them newest first', async () => {
    const docs = await list()
    expect(docs.map((d) => d.Id)).toEqual(stored.map((d) => d.Id).sort((a, b) => b - a))
    expect(docs[0]).toEqual(stored[1])
  })

  it('downloads each one byte-identical, with its type and original name', async () => {
    for (const [doc, bytes] of [
      [stored[0]!, pdf],
      [stored[1]!, png],
    ] as const) {
      const res = await admin.get('/api/contract/documento', { idDocumento: doc.Id })
      expect(res.status).toBe(200)
      expect(res.bytes.equals(bytes)).toBe(true)
      expect(res.headers.get('content-type')).toContain(doc.TipoMime)
      expect(res.headers.get('content-disposition')).toContain('attachment;')
      expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(doc.Nombre)}`)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    }
    expect((await admin.get('/api/contract/documento', { idDocumento: stored[0]!.Id })).headers.get('content-disposition')).toContain('filename="DNI Lucia.pdf"')
  })

  it('the type defaults to otro; jpg, docx (zip) accepted', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('word/document.xml')])
    const res = await upload(admin, code, [
      { name: 'foto.jpeg', bytes: FILES.jpg() },
      { name: 'autorizacion.docx', bytes: zip },
    ])
    expect(res.status, res.text).toBe(201)
    expect(res.body.map((d) => [d.Tipo, d.TipoMime])).toEqual([
      ['otro', 'image/jpeg'],
      ['otro', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ])
  })
})

describe('refused uploads store nothing', () => {
  const refused = async (files: Parameters<typeof upload>[2], status: number, message: string, opts: { code?: string | null; tipo?: string } = {}) => {
    const before = { docs: (await list()).length, files: storedFiles() }
    const res = await upload(admin, opts.code === undefined ? code : opts.code, files, opts.tipo)
    expect(res.status, res.text).toBe(status)
    expect(res.headers.get('content-type')).toContain('text/plain')
    expect(res.text).toContain(message)
    expect((await list()).length).toBe(before.docs)
    expect(storedFiles()).toEqual(before.files)
  }

  it('a type not accepted (by extension)', async () => {
    await refused([{ name: 'virus.exe', bytes: Buffer.from('MZ...') }], 400, 'El archivo «virus.exe» no es de un tipo admitido (PDF, JPG, PNG, DOC, DOCX, XLSX u ODT).')
    await refused([{ name: 'sin-extension', bytes: FILES.pdf() }], 400, 'no es de un tipo admitido')
    await refused([{ name: 'pagina.html', bytes: Buffer.from('<html>') }], 400, 'no es de un tipo admitido')
  })

  it('content that does not match its extension; an empty file', async () => {
    await refused([{ name: 'factura.pdf', bytes: FILES.png() }], 400, 'El contenido del archivo «factura.pdf» no corresponde a un PDF.')
    await refused([{ name: 'foto.png', bytes: FILES.jpg() }], 400, 'no corresponde a un PNG')
    await refused([{ name: 'foto.jpg', bytes: Buffer.from('GIF89a') }], 400, 'no corresponde a un JPG')
    await refused([{ name: 'vacio.pdf', bytes: Buffer.alloc(0) }], 400, 'El archivo «vacio.pdf» está vacío.')
  })

  it('one bad file refuses the whole upload', async () => {
    await refused([{ name: 'bueno.pdf', bytes: FILES.pdf() }, { name: 'malo.exe', bytes: Buffer.from('MZ') }], 400, '«malo.exe»')
  })

  it('a file over 10 MB is a 413', async () => {
    const big = Buffer.concat([FILES.pdf(), Buffer.alloc(10 * 1024 * 1024)])
    await refused([{ name: 'escrituras.pdf', bytes: big }], 413, 'El archivo «escrituras.pdf» supera el tamaño máximo de 10 MB.')
  })

  it('more than 10 files is a 413', async () => {
    const files = Array.from({ length: 11 }, (_, i) => ({ name: `hoja-${i + 1}.pdf`, bytes: FILES.pdf(String(i)) }))
    await refused(files, 413, 'Como máximo se pueden subir 10 archivos a la vez.')
  })

  it('missing or bad fields', async () => {
    await refused([{ name: 'a.pdf', bytes: FILES.pdf() }], 400, 'Falta el código de contrato (CodigoContrato).', { code: null })
    await refused([{ name: 'a.pdf', bytes: FILES.pdf() }], 400, 'no tiene el formato', { code: 'EV-26-1' })
    await refused([{ name: 'a.pdf', bytes: FILES.pdf() }], 404, 'No se ha encontrado el contrato EV-2026-999999.', { code: 'EV-2026-999999' })
    await refused([{ name: 'a.pdf', bytes: FILES.pdf() }], 400, 'Tipo: «pasaporte» no es un tipo de documento', { tipo: 'pasaporte' })
    await refused([{ name: 'a.pdf', bytes: FILES.pdf(), field: 'Archivo' }], 400, 'Campo de archivo inesperado «Archivo»')
    await refused([], 400, 'No se ha enviado ningún archivo (campo Archivos).')
    const json = await admin.post('/api/contract/insert-documents', { CodigoContrato: code })
    expect(json.status).toBe(400)
    expect(json.text).toContain('multipart/form-data')
  })

  it('a closed contract takes no documents (409)', async () => {
    const anulado = api.db.prepare("SELECT codigo FROM contratos WHERE marca_id = ? AND estado = 'anulado' LIMIT 1").get(marcaId) as { codigo: string }
    const before = storedFiles()
    const res = await upload(admin, anulado.codigo, [{ name: 'a.pdf', bytes: FILES.pdf() }])
    expect(res.status).toBe(409)
    expect(res.text).toBe(`El contrato ${anulado.codigo} está en estado «Anulado»: ya no admite documentos.`)
    expect(storedFiles()).toEqual(before)
  })

  it('no temporary file is left behind', () => {
    expect(storedFiles().filter((p) => p.startsWith('.tmp'))).toEqual([])
  })
})

describe('file names are never trusted', () => {
  it('path traversal and odd characters: stored by id, the name sanitised', async () => {
    const names = ['../../../../etc/passwd.pdf', '..\\..\\windows\\evil.pdf', '.oculto.pdf', 'a<b>c:d|e?f*g.pdf', `${'x'.repeat(200)}.pdf`, 'co"mi"llas\r\n.pdf']
    const res = await upload(admin, code, names.map((name) => ({ name, bytes: FILES.pdf(name) })))
    expect(res.status, res.text).toBe(201)
    const shown = res.body.map((d) => d.Nombre)
    for (const n of shown) {
      expect(n).not.toMatch(/[\\/<>:"|?*]/)
      expect(n.startsWith('.')).toBe(false)
      expect(n.length).toBeLessThanOrEqual(120)
      expect(n.endsWith('.pdf')).toBe(true)
    }
    expect(shown[0]).toBe('passwd.pdf')
    expect(shown[1]).toBe('evil.pdf')
    expect(shown[2]).toBe('oculto.pdf')
    expect(shown[3]).toBe('abcdefg.pdf')
    expect(shown[4]).toHaveLength(120)
    // Nothing was written outside the contract's folder; everything is named by id.
    const files = storedFiles()
    for (const d of res.body) expect(files).toContain(path.join(String(marcaId), String(contractId), String(d.Id)))
    expect(files.every((f) => /^\d+[\\/]\d+[\\/]\d+$/.test(f))).toBe(true)
    expect(fs.existsSync(path.join(api.dataDir, 'etc'))).toBe(false)
    const download = await admin.get('/api/contract/documento', { idDocumento: res.body[3]!.Id })
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="abcdefg.pdf"; filename*=UTF-8''abcdefg.pdf`)
    // Quotes and line breaks never reach the header.
    const quoted = await admin.get('/api/contract/documento', { idDocumento: res.body[5]!.Id })
    expect(quoted.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"\r\n]+"; filename\*=UTF-8''[^"\s]+$/)
  })
})

describe('visibility and errors', () => {
  it('a sales channel cannot see or add documents of a contract outside its subtree (404)', async () => {
    const docs = await list()
    const listRes = await agente.get('/api/contract/documentos', { contrato: code })
    expect(listRes.status).toBe(404)
    expect((await agente.get('/api/contract/documento', { idDocumento: docs[0]!.Id })).status).toBe(404)
    const before = storedFiles()
    const up = await upload(agente, code, [{ name: 'a.pdf', bytes: FILES.pdf() }])
    expect(up.status).toBe(404)
    expect(storedFiles()).toEqual(before)
  })

  it('unknown or malformed document ids; a document of another brand', async () => {
    expect((await admin.get('/api/contract/documento', { idDocumento: 99_999_999 })).status).toBe(404)
    expect((await admin.get('/api/contract/documento', { idDocumento: 'abc' })).status).toBe(400)
    expect((await admin.get('/api/contract/documento')).status).toBe(400)
    const doc = (await list())[0]!
    const res = await admin.forBrand('grupoenergia.es').get('/api/contract/documento', { idDocumento: doc.Id })
    expect(res.status).toBe(404)
    expect((await admin.get('/api/contract/documentos')).status).toBe(400)
    expect((await admin.get('/api/contract/documentos', { contrato: 'EV-2026-999999' })).status).toBe(404)
  })

  it('seeded signed contracts list their signed copy (no stored file): its download is the contract PDF', async () => {
    const seeded = api.db.prepare("SELECT codigo FROM contratos WHERE marca_id = ? AND estado = 'activo' ORDER BY id LIMIT 1").get(marcaId) as { codigo: string }
    const docs = await list(seeded.codigo)
    expect(docs).toHaveLength(1)
    expect(docs[0]).toMatchObject({ Tipo: 'contrato_firmado', TipoNombre: 'Contrato firmado', TipoMime: 'application/pdf', Tamano: null, Sha256: null, Usuario: 'Sistema', Generado: true, Nombre: `contrato-firmado-${seeded.codigo}.pdf` })
    const res = await admin.get('/api/contract/documento', { idDocumento: docs[0]!.Id })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.bytes.subarray(0, 5).toString()).toBe('%PDF-')
    const text = pdfText(res.bytes)
    expect(text).toContain(seeded.codigo)
    expect(text).toContain('Firmado electrónicamente el')
    // A seeded draft has none.
    const draft = api.db.prepare("SELECT codigo FROM contratos WHERE marca_id = ? AND estado = 'borrador' ORDER BY id LIMIT 1").get(marcaId) as { codigo: string }
    expect(await list(draft.codigo)).toEqual([])
  })
})
