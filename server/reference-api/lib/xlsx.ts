import ExcelJS from 'exceljs'
import type { FastifyReply } from 'fastify'
import { PassThrough } from 'node:stream'

export interface XlsxColumn<T> {
  header: string
  /** Field of the row, or a function computing the cell. */
  value: keyof T | ((row: T) => unknown)
  width?: number
  /** Excel number format, e.g. '#,##0.00 "€"' or 'dd/mm/yyyy'. */
  format?: string
}

export const XLSX_FORMATS = {
  money: '#,##0.00 "€"',
  energy: '#,##0 "kWh"',
  power: '#,##0.000 "kW"',
  date: 'dd/mm/yyyy',
  integer: '#,##0',
} as const

/** Extra formats of the tools' exports. */
export const XLSX_TOOL_FORMATS = {
  dateTime: 'dd/mm/yyyy hh:mm',
  eurKwh: '0.000000 "€/kWh"',
  eurMwh: '#,##0.00 "€/MWh"',
  kvarh: '#,##0 "kvarh"',
  pct: '0.0 "%"',
} as const

/** One sheet of a workbook. */
export interface XlsxSheet<T> {
  name: string
  columns: XlsxColumn<T>[]
  rows: Iterable<T>
}

/** A one-sheet export (the lists). */
export async function sendXlsx<T>(
  reply: FastifyReply,
  opts: { fileName: string; sheetName: string; columns: XlsxColumn<T>[]; rows: Iterable<T> },
): Promise<FastifyReply> {
  return sendXlsxBook(reply, opts.fileName, [{ name: opts.sheetName, columns: opts.columns, rows: opts.rows }])
}

/** Rows written between two turns of the event loop: enough to keep the zip busy, few enough to hold little. */
const ROWS_PER_TURN = 200

/**
 * Streams an XLSX workbook to the reply: rows are written as they are read, a few hundred at a
 * time, each batch handed to the zip and the socket before the next is read, and none while the
 * client is behind, so a large export is never held whole in memory. A client that goes away
 * stops it (and closes the rows' iterator). Bold frozen header row, Excel dates for
 * `dd/mm/yyyy` and date-time columns, number formats per column; the file name travels in
 * Content-Disposition.
 */
export async function sendXlsxBook(reply: FastifyReply, fileName: string, sheets: XlsxSheet<any>[]): Promise<FastifyReply> {
  const stream = new PassThrough()
  reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${asciiName(fileName)}"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .header('cache-control', 'no-store')
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false })
  const write = async () => {
    for (const spec of sheets) {
      const sheet = workbook.addWorksheet(spec.name, { views: [{ state: 'frozen', ySplit: 1 }] })
      sheet.columns = spec.columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width ?? Math.max(12, c.header.length + 2), style: c.format ? { numFmt: c.format } : {} }))
      sheet.getRow(1).font = { bold: true }
      sheet.getRow(1).commit()
      const zipInput = sheetZipInput(sheet)
      let written = 0
      for (const row of spec.rows) {
        const values: Record<string, unknown> = {}
        spec.columns.forEach((c, i) => {
          let v = typeof c.value === 'function' ? c.value(row) : row[c.value]
          if (c.format === XLSX_FORMATS.date && typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) v = new Date(`${v.slice(0, 10)}T00:00:00Z`)
          // Local timestamps `YYYY-MM-DDTHH:mm` as Excel date-times (shown as written, no time zone shift).
          // Local clock time as written (the offset only tells the two 02:00 hours of October apart).
          if (c.format === XLSX_TOOL_FORMATS.dateTime && typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}([+-]\d{2}:\d{2})?$/.test(v)) v = new Date(`${v.slice(0, 16)}:00Z`)
          values[`c${i}`] = v ?? null
        })
        sheet.addRow(values).commit()
        if (++written % ROWS_PER_TURN === 0) {
          await flowed(zipInput, stream)
          if (stream.destroyed) throw new Error('export abandoned by the client')
        }
      }
      sheet.commit()
    }
    await workbook.commit()
  }
  write().catch((err) => stream.destroy(err))
  return reply.send(stream)
}

/** A writable stage of the export: Node's own streams, or the older `readable-stream` ones the zip library uses. */
interface Stage {
  on(event: 'drain' | 'close', listener: () => void): unknown
  off(event: 'drain' | 'close', listener: () => void): unknown
  writableNeedDrain?: boolean
  _writableState?: { needDrain?: boolean }
}

const behind = (stage: Stage) => stage.writableNeedDrain ?? stage._writableState?.needDrain ?? false

/**
 * Where the zip reads a sheet's XML from. ExcelJS writes rows into the sheet's buffer, which
 * pushes into this stream without heeding backpressure: when compression lags, rows pile up
 * there unless the writer waits for it. An ExcelJS internal, hence the fallback to none.
 */
function sheetZipInput(sheet: unknown): Stage | undefined {
  const pipes = (sheet as { stream?: { pipes?: unknown[] } }).stream?.pipes
  const input = Array.isArray(pipes) ? (pipes[0] as Partial<Stage> | undefined) : undefined
  return typeof input?.on === 'function' && typeof input.off === 'function' && input._writableState ? (input as Stage) : undefined
}

/** Lets the zip and the socket take what was written: waits while either is behind (until the client is gone). */
async function flowed(zipInput: Stage | undefined, out: PassThrough): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
  for (const stage of [zipInput, out]) {
    if (!stage || !behind(stage) || out.destroyed) continue
    await new Promise<void>((resolve) => {
      const done = () => {
        stage.off('drain', done)
        out.off('close', done)
        resolve()
      }
      stage.on('drain', done)
      out.on('close', done)
    })
  }
}

function asciiName(name: string): string {
  return name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9._-]/g, '_')
}

/** `contratos-2026-11-21.xlsx` style names. */
export function exportFileName(base: string, now = new Date()): string {
  return `${base}-${now.toISOString().slice(0, 10)}.xlsx`
}
