import type Database from 'better-sqlite3'
import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import PDFDocument from 'pdfkit'
import { TARIFAS } from './catalogos'
import type { ApiContext } from './context'
import { DocumentStore, extensionOf, sanitizeFileName } from './documents'
import { fail } from './http'
import { ofertaPrecioFijo } from '../domain/precios'
import { PERIODOS } from '../domain/contract-rules'

/**
 * The file and folder area (spec §7 Files): name rules, accepted types, where the bytes live
 * and the demo files' content.
 *
 * Bytes are stored under `DATA_DIR/archivos/<marca>/<archivo id>` — by ids only, never by the
 * user's name (kept, sanitised, in the database). Uploads are streamed to
 * `DATA_DIR/archivos/.tmp/` first and moved into place once the whole call is accepted.
 */

/** At most this many files per upload call… */
export const MAX_UPLOAD_FILES = 20
/** …of at most this many bytes each (25 MB). */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024
/** Longest folder name, in characters. */
export const MAX_FOLDER_NAME = 100

/** Accepted extensions and the type the API stores and serves for each (never the client's). */
export const TIPOS_ARCHIVO: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  txt: 'text/plain',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  zip: 'application/zip',
  eml: 'message/rfc822',
}
export const EXTENSIONES_LABEL = Object.keys(TIPOS_ARCHIVO).join(', ')

/** Types already compressed: stored as they are in a zip download. */
export const COMPRIMIDOS = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'docx', 'xlsx', 'pptx', 'odt', 'ods', 'zip'])

/** `DATA_DIR/archivos` (the sibling of the contract documents' folder `DATA_DIR/documentos`). */
export function archivosDir(ctx: Pick<ApiContext, 'documentsDir'>): string {
  return path.join(path.dirname(path.resolve(ctx.documentsDir)), 'archivos')
}

/** The store of the file area (temp uploads, commit by id, path checks). */
export function archivoStore(ctx: Pick<ApiContext, 'documentsDir'>): DocumentStore {
  return new DocumentStore(archivosDir(ctx))
}

/** Where a file's bytes live, relative to the files folder. */
export function archivoRelativePath(marcaId: number, archivoId: number): string {
  return path.posix.join(String(marcaId), String(archivoId))
}

/** The key that makes sibling names unique: NFC, lower case (any script, not only ASCII). */
export function nombreClave(nombre: string): string {
  return nombre.normalize('NFC').toLowerCase()
}

const FORBIDDEN = /[/\\:*?"<>|]/
// oxlint-disable-next-line no-control-regex -- control characters are what a folder name may not hold
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/**
 * A folder name from a request: trimmed, NFC, 1–100 characters, none of `/ \ : * ? " < > |`
 * nor control characters, not `.` or `..`. Anything else is a 400.
 */
export function nombreCarpeta(raw: unknown, campo = 'Nombre'): string {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) fail(400, `Falta el nombre de la carpeta (${campo}).`)
  if (typeof raw !== 'string') fail(400, `El nombre de la carpeta (${campo}) debe ser un texto.`)
  const name = raw.normalize('NFC').trim()
  if ([...name].length > MAX_FOLDER_NAME) fail(400, `El nombre de la carpeta no puede tener más de ${MAX_FOLDER_NAME} caracteres.`)
  if (FORBIDDEN.test(name) || CONTROL.test(name)) fail(400, 'El nombre de la carpeta no puede contener los caracteres / \\ : * ? " < > | ni caracteres de control.')
  if (name === '.' || name === '..') fail(400, 'El nombre de la carpeta no puede ser «.» ni «..».')
  return name
}

/**
 * An uploaded file's name, safe to keep and show: the last path segment only, no control or
 * reserved characters, no leading dots, at most 120 characters (extension kept).
 */
export function nombreArchivo(raw: string): string {
  return sanitizeFileName(raw.replace(new RegExp(CONTROL.source, 'g'), ''), 'bin')
}

/**
 * `informe.pdf` → `informe (2).pdf` (the extension kept as written; at most 120 characters).
 * Folders (`conExtension` false) take the suffix at the end: `Versión 1.5 (2)`.
 */
export function nombreConSufijo(nombre: string, n: number, conExtension = true): string {
  const ext = conExtension ? extensionOf(nombre) : ''
  const tail = ext ? nombre.slice(nombre.length - ext.length - 1) : ''
  const suffix = ` (${n})`
  let base = nombre.slice(0, nombre.length - tail.length)
  const room = 120 - suffix.length - tail.length
  if (base.length > room) base = base.slice(0, room).trimEnd()
  return `${base}${suffix}${tail}`
}

/**
 * The first of `nombre`, `nombre (2)`, `nombre (3)`… not in `taken` (keys of `nombreClave`);
 * the chosen one is added to `taken`.
 */
export function nombreLibre(nombre: string, taken: Set<string>, conExtension = true): string {
  let candidate = nombre
  for (let n = 2; taken.has(nombreClave(candidate)); n++) candidate = nombreConSufijo(nombre, n, conExtension)
  taken.add(nombreClave(candidate))
  return candidate
}

/** The lower-case extension of a stored name and its type, or null when not accepted. */
export function tipoArchivo(nombre: string): { extension: string; mime: string } | null {
  const extension = extensionOf(nombre)
  const mime = TIPOS_ARCHIVO[extension]
  return mime ? { extension, mime } : null
}

// ---------------------------------------------------------------------------------------------
// Demo files. The seed (one synchronous transaction) only writes their rows with a content key
// (`semilla`); the bytes are generated when the API starts, written to disk by id, and their
// size and SHA-256 recorded. The content depends only on the row (brand, date), so it is the
// same on every machine and is written again whenever the file is missing (a copied database).

interface DemoRow {
  id: number
  marca_id: number
  semilla: string
  ruta: string | null
  tamano: number | null
  fecha: string
  dominio: string
  marca: string
}

const eur = (v: number | null) => (v === null ? '' : v.toFixed(6).replace('.', ','))

function tarifasCsv(row: DemoRow): Buffer {
  const day = row.fecha.slice(0, 10)
  const lines = ['Tarifa;Periodo;Precio energía (€/kWh);Precio potencia (€/kW día);Vigencia desde;Vigencia hasta']
  for (const tarifa of TARIFAS) {
    const oferta = ofertaPrecioFijo(tarifa, row.dominio, day)
    for (const p of PERIODOS) {
      const e = oferta.PreciosEnergia[p]
      const k = oferta.PreciosPotencia[p]
      if (e === null && k === null) continue
      lines.push([oferta.Tarifa, p, eur(e), eur(k), oferta.VigenciaDesde, oferta.VigenciaHasta].join(';'))
    }
  }
  // A BOM so spreadsheet programs read the accents and the € sign as UTF-8.
  return Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf8')
}

function text(lines: string[]): Buffer {
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8')
}

const DEMO_TEXTS: Record<string, (row: DemoRow) => Buffer> = {
  leeme: (row) =>
    text([
      `Área de archivos de ${row.marca}`,
      '',
      'Aquí el equipo comparte plantillas, tarifas, material de formación y documentación legal.',
      'Organiza los archivos en carpetas, descárgalos uno a uno o varios a la vez en un zip.',
      'Tipos admitidos: PDF, imágenes, texto, CSV, documentos de Office y OpenDocument, zip y correos (.eml); hasta 25 MB por archivo.',
    ]),
  'carta-bienvenida': (row) =>
    text([
      'Estimado/a {{NOMBRE_TITULAR}}:',
      '',
      `Le damos la bienvenida a ${row.marca}. Su contrato de suministro {{CODIGO_CONTRATO}} para el punto de suministro {{CUPS}} ha quedado registrado.`,
      'Le informaremos cuando la distribuidora active el suministro. Dispone de 14 días naturales para desistir del contrato sin necesidad de justificación.',
      '',
      'Un saludo,',
      `El equipo de ${row.marca}`,
    ]),
  'guia-20td': () =>
    text([
      'Guía rápida de la tarifa de acceso 2.0TD',
      '',
      'Suministros en baja tensión (hasta 1 kV) con potencia contratada de hasta 15 kW.',
      'Energía, tres periodos en días laborables:',
      '  P1 (punta): de 10 a 14 h y de 18 a 22 h.',
      '  P2 (llano): de 8 a 10 h, de 14 a 18 h y de 22 a 24 h.',
      '  P3 (valle): de 0 a 8 h.',
      'Sábados, domingos y festivos nacionales: todas las horas en P3.',
      'Potencia, dos periodos: P1 de 8 a 24 h en días laborables; P2 el resto.',
      '',
      'Por encima de 15 kW en algún periodo corresponde la 3.0TD (seis periodos de potencia y de energía).',
    ]),
}

async function condicionesPdf(row: DemoRow): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    // A fixed creation date (the file's): the same bytes on every machine.
    info: { Title: 'Resumen de condiciones generales', Author: row.marca, Creator: `Portal · ${row.marca}`, CreationDate: new Date(row.fecha) },
  })
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  doc.font('Helvetica-Bold').fontSize(16).text('Resumen de condiciones generales')
  doc.moveDown(0.3).font('Helvetica').fontSize(10).fillColor('#555555').text(`${row.marca} · contrato de suministro de energía eléctrica`)
  doc.moveDown().fillColor('#000000').fontSize(11)
  for (const [title, body] of [
    ['Desistimiento', 'El titular puede desistir del contrato en los 14 días naturales siguientes a su firma, sin penalización.'],
    ['Duración', 'Un año desde el inicio del suministro, prorrogable tácitamente por periodos anuales.'],
    ['Baja anticipada', 'Solo durante el primer año de suministro, con un máximo del 5 % del precio del contrato por la energía estimada pendiente. Sin penalización en las prórrogas, avisando con 15 días de antelación.'],
    ['Facturación', 'Mensual, con el impuesto eléctrico y el IVA vigentes; pago por domiciliación bancaria.'],
  ] as const) {
    doc.font('Helvetica-Bold').text(title)
    doc.font('Helvetica').text(body, { align: 'justify' })
    doc.moveDown(0.6)
  }
  doc.end()
  return done
}

async function demoContent(row: DemoRow): Promise<Buffer> {
  if (row.semilla === 'tarifas-csv') return tarifasCsv(row)
  if (row.semilla === 'condiciones-pdf') return condicionesPdf(row)
  const make = DEMO_TEXTS[row.semilla]
  if (!make) throw new Error(`Contenido de demostración desconocido: ${row.semilla}`)
  return make(row)
}

/**
 * Writes the demo files whose bytes are not on disk yet (first start, or a database copied
 * without its files) and records their size and SHA-256. Runs once at start-up.
 */
export async function materializeDemoFiles(db: Database.Database, store: DocumentStore): Promise<number> {
  const rows = db
    .prepare(
      `SELECT a.id, a.marca_id, a.semilla, a.ruta, a.tamano, a.fecha, m.dominio, m.nombre AS marca
       FROM archivos a JOIN marcas m ON m.id = a.marca_id WHERE a.semilla IS NOT NULL ORDER BY a.id`,
    )
    .all() as DemoRow[]
  const update = db.prepare('UPDATE archivos SET ruta = ?, tamano = ?, sha256 = ? WHERE id = ?')
  let written = 0
  for (const row of rows) {
    const relative = row.ruta ?? archivoRelativePath(row.marca_id, row.id)
    const target = store.absolute(relative)
    if (row.ruta && row.tamano !== null && fs.existsSync(target)) continue
    const bytes = await demoContent(row)
    fs.mkdirSync(path.dirname(target), { recursive: true })
    const temp = `${target}.${randomUUID()}.tmp`
    fs.writeFileSync(temp, bytes, { mode: 0o600 })
    fs.renameSync(temp, target)
    update.run(relative, bytes.length, createHash('sha256').update(bytes).digest('hex'), row.id)
    written++
  }
  return written
}
