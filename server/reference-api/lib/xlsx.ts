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

/**
 * Streams an XLSX file to the reply: rows are written as they are read, so a large export
 * is never held whole in memory. The file name travels in Content-Disposition.
 */
export async function sendXlsx<T>(
  reply: FastifyReply,
  opts: { fileName: string; sheetName: string; columns: XlsxColumn<T>[]; rows: Iterable<T> },
): Promise<FastifyReply> {
  const stream = new PassThrough()
  reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${asciiName(opts.fileName)}"; filename*=UTF-8''${encodeURIComponent(opts.fileName)}`)
    .header('cache-control', 'no-store')
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false })
  const sheet = workbook.addWorksheet(opts.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = opts.columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width ?? Math.max(12, c.header.length + 2), style: c.format ? { numFmt: c.format } : {} }))
  sheet.getRow(1).font = { bold: true }
  sheet.getRow(1).commit()
  const write = async () => {
    for (const row of opts.rows) {
      const values: Record<string, unknown> = {}
      opts.columns.forEach((c, i) => {
        let v = typeof c.value === 'function' ? c.value(row) : row[c.value]
        if (c.format === XLSX_FORMATS.date && typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) v = new Date(`${v.slice(0, 10)}T00:00:00Z`)
        values[`c${i}`] = v ?? null
      })
      sheet.addRow(values).commit()
    }
    sheet.commit()
    await workbook.commit()
  }
  write().catch((err) => stream.destroy(err))
  return reply.send(stream)
}

function asciiName(name: string): string {
  return name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9._-]/g, '_')
}

/** `contratos-2026-11-21.xlsx` style names. */
export function exportFileName(base: string, now = new Date()): string {
  return `${base}-${now.toISOString().slice(0, 10)}.xlsx`
}
