import ExcelJS from 'exceljs'
import type { FastifyReply } from 'fastify'
import { once } from 'node:events'
import { PassThrough } from 'node:stream'

/** One column of a streamed sheet: its header, width, cell value and Excel number format. */
export interface XlsxColumn<T> {
  header: string
  width: number
  value: (row: T) => unknown
  format?: string
}

/** `attachment; filename="…"`, with the UTF-8 name beside an ASCII one when the name needs it. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return ascii === fileName ? `attachment; filename="${fileName}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

/** Rows written between two waits for the socket. */
const ROWS_PER_TURN = 200

/**
 * Writes rows into `stream` as a one-sheet XLSX workbook (bold frozen header): rows are written
 * as they are read, and the writer waits whenever the stream's reader is behind, so a long
 * export is never held whole in memory. A stream destroyed by its reader stops it (the rows'
 * iterator is closed). Resolves once the file is complete; rejects when reading the rows fails
 * or the reader went away.
 */
export async function writeXlsx<T>(stream: PassThrough, opts: { sheetName: string; columns: readonly XlsxColumn<T>[]; rows: AsyncIterable<T> }): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false })
  const sheet = workbook.addWorksheet(opts.sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = opts.columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width, style: c.format ? { numFmt: c.format } : {} }))
  sheet.getRow(1).font = { bold: true }
  sheet.getRow(1).commit()
  let written = 0
  for await (const row of opts.rows) {
    sheet.addRow(Object.fromEntries(opts.columns.map((c, i) => [`c${i}`, c.value(row)]))).commit()
    if (++written % ROWS_PER_TURN === 0) {
      if (stream.destroyed) throw new Error('export abandoned by the client')
      if (stream.writableNeedDrain) await Promise.race([once(stream, 'drain'), once(stream, 'close')])
    }
  }
  sheet.commit()
  await workbook.commit()
}

/** The answer's headers of an XLSX download named `fileName`. */
export function xlsxHeaders(reply: FastifyReply, fileName: string): FastifyReply {
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', contentDisposition(fileName))
    .header('cache-control', 'no-store')
}

/**
 * Streams rows as an XLSX download (`writeXlsx`), built on this thread. A failure while reading
 * the rows ends the download broken, never as a complete-looking file.
 */
export function sendXlsxStream<T>(reply: FastifyReply, opts: { fileName: string; sheetName: string; columns: readonly XlsxColumn<T>[]; rows: AsyncIterable<T> }): FastifyReply {
  const stream = new PassThrough()
  writeXlsx(stream, opts).catch((err: Error) => stream.destroy(err))
  return xlsxHeaders(reply, opts.fileName).send(stream)
}
