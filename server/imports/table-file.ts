import ExcelJS from 'exceljs'
import { IMPORT_MAX_ROWS } from '../../schemas/import'
import { HttpError } from '../lib/errors'

/**
 * The uploaded table, CSV or XLSX, read into text cells: the header row, then each row with
 * its line in the file (the header is line 1) so errors point where the user looks. CSV as
 * spreadsheets write it: UTF-8 with or without BOM (Windows-1252 when not UTF-8), separated by
 * semicolons, commas or tabs (the header decides), fields quoted with "" escapes and line
 * breaks inside quotes.
 */

export interface TableRow {
  line: number
  cells: string[]
}

export interface Table {
  headers: string[]
  rows: TableRow[]
}

const MAX_COLUMNS = 200
const MAX_CELL = 5000
const tooMany = () => new HttpError(400, `El archivo tiene más de ${IMPORT_MAX_ROWS.toLocaleString('es-ES')} filas: divídelo en varios.`)

export async function readTable(data: Buffer, fileName: string): Promise<Table> {
  if (data.length === 0) throw new HttpError(400, 'El archivo está vacío.')
  const isZip = data.length > 4 && data[0] === 0x50 && data[1] === 0x4b && data[2] === 0x03 && data[3] === 0x04
  if (isZip) return readXlsx(data)
  if (/\.xlsx?$/i.test(fileName)) throw new HttpError(400, 'El archivo no es un Excel (.xlsx) válido. Guárdalo como .xlsx o como CSV.')
  return tableOf(parseCsv(decodeText(data)))
}

function decodeText(data: Buffer): string {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data)
  } catch {
    text = new TextDecoder('windows-1252').decode(data)
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

/** The separator of the header line: the most frequent of ; , and tab outside quotes. */
function separatorOf(text: string): string {
  const counts = new Map<string, number>([[';', 0], [',', 0], ['\t', 0]])
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (ch === '"') quoted = !quoted
    else if (!quoted && (ch === '\n' || ch === '\r')) break
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1)
  }
  let best = ';'
  for (const [sep, n] of counts) if (n > counts.get(best)!) best = sep
  return best
}

/** RFC 4180 with the separator of the header; each record with the line it starts on. Cells are sliced, never built a character at a time. */
export function parseCsv(text: string): TableRow[] {
  const sep = separatorOf(text).charCodeAt(0)
  const QUOTE = 34
  const CR = 13
  const LF = 10
  const rows: TableRow[] = []
  let cells: string[] = []
  let line = 1
  let startLine = 1
  let i = 0
  const n = text.length
  const push = (cell: string) => {
    if (cell.length > MAX_CELL) throw new HttpError(400, `La línea ${startLine} tiene una celda de más de ${MAX_CELL} caracteres.`)
    cells.push(cell)
  }
  const endRow = () => {
    if (cells.length > MAX_COLUMNS) throw new HttpError(400, `La línea ${startLine} tiene más de ${MAX_COLUMNS} columnas.`)
    rows.push({ line: startLine, cells })
    if (rows.length > IMPORT_MAX_ROWS + 1) throw tooMany()
    cells = []
  }
  while (i < n) {
    let cell: string
    if (text.charCodeAt(i) === QUOTE) {
      // A quoted cell: up to the closing quote, "" standing for one quote; line breaks inside count.
      let out = ''
      let from = i + 1
      for (;;) {
        const q = text.indexOf('"', from)
        if (q < 0) throw new HttpError(400, `La línea ${startLine} abre unas comillas que no se cierran.`)
        out += text.slice(from, q)
        if (text.charCodeAt(q + 1) === QUOTE) {
          out += '"'
          from = q + 2
          continue
        }
        i = q + 1
        break
      }
      for (let k = out.indexOf('\n'); k >= 0; k = out.indexOf('\n', k + 1)) line++
      // Anything between the closing quote and the separator is kept, as spreadsheets do.
      const stop = nextStop(text, i, sep)
      cell = out + text.slice(i, stop)
      i = stop
    } else {
      const stop = nextStop(text, i, sep)
      cell = text.slice(i, stop)
      i = stop
    }
    push(cell)
    if (i >= n) {
      endRow()
      break
    }
    const c = text.charCodeAt(i)
    if (c === sep) {
      i++
      // A separator at the very end of the text leaves one more, empty, cell.
      if (i >= n) {
        push('')
        endRow()
      }
      continue
    }
    // A line break ends the record.
    i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1
    endRow()
    line++
    startLine = line
  }
  return rows
}

/** Where an unquoted cell starting at `from` ends: the next separator or line break, or the end. */
function nextStop(text: string, from: number, sep: number): number {
  for (let j = from; j < text.length; j++) {
    const c = text.charCodeAt(j)
    if (c === sep || c === 10 || c === 13) return j
  }
  return text.length
}

/** Header and data rows; blank rows are dropped. */
function tableOf(records: TableRow[]): Table {
  const nonBlank = records.filter((r) => r.cells.some((c) => c.trim() !== ''))
  const header = nonBlank[0]
  if (!header) throw new HttpError(400, 'El archivo no tiene fila de cabecera.')
  const headers = header.cells.map((h) => h.trim())
  if (headers.every((h) => h === '')) throw new HttpError(400, 'La fila de cabecera está vacía.')
  const rows = nonBlank.slice(1)
  if (rows.length > IMPORT_MAX_ROWS) throw tooMany()
  if (rows.length === 0) throw new HttpError(400, 'El archivo no tiene filas de datos bajo la cabecera.')
  return { headers, rows }
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('')
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue)
    if ('text' in value) return String(value.text)
    if ('error' in value) return ''
    return ''
  }
  return String(value)
}

async function readXlsx(data: Buffer): Promise<Table> {
  const book = new ExcelJS.Workbook()
  try {
    await book.xlsx.load(data as unknown as ArrayBuffer)
  } catch {
    throw new HttpError(400, 'El archivo no es un Excel (.xlsx) válido. Guárdalo como .xlsx o como CSV.')
  }
  const sheet = book.worksheets[0]
  if (!sheet) throw new HttpError(400, 'El Excel no tiene ninguna hoja.')
  if (sheet.rowCount > IMPORT_MAX_ROWS + 50) throw tooMany()
  const records: TableRow[] = []
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const cells: string[] = []
    const count = Math.min(row.cellCount, MAX_COLUMNS)
    for (let c = 1; c <= count; c++) cells.push(cellText(row.getCell(c).value).slice(0, MAX_CELL))
    records.push({ line, cells })
  })
  return tableOf(records)
}

/** An XLSX of one sheet: a bold header row, then the rows. */
export async function writeXlsx(sheetName: string, headers: string[], rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet(sheetName)
  sheet.addRow(headers).font = { bold: true }
  for (const row of rows) sheet.addRow(row)
  sheet.columns.forEach((col, i) => (col.width = Math.min(40, Math.max(12, (headers[i] ?? '').length + 2))))
  return Buffer.from(await book.xlsx.writeBuffer())
}

/** A CSV as Spanish spreadsheets open it: UTF-8 with BOM, semicolons, CRLF. */
export function writeCsv(headers: string[], rows: (string | number)[][]): Buffer {
  const quote = (v: string | number) => {
    const s = String(v)
    return /[;"\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
  }
  const lines = [headers, ...rows].map((r) => r.map(quote).join(';'))
  return Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf8')
}
