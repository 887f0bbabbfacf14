import ExcelJS from 'exceljs'
import type { FastifyReply } from 'fastify'
import { once } from 'node:events'
import { PassThrough } from 'node:stream'
import type { AuditEntry } from '../../schemas/audit'
import { spainWallClock } from '../lib/spain-time'

/** Rows of one export, at most: a filter narrows it further. */
export const MAX_EXPORT_ROWS = 100_000

interface ExportColumn {
  header: string
  width: number
  value: (e: AuditEntry) => unknown
  format?: string
}

const changesText = (e: AuditEntry) => e.changes?.map((c) => `${c.field}: ${c.before ?? '—'} → ${c.after ?? '—'}`).join('\n')

/** The columns of the export, Spanish headers, in the order the Auditoría screen shows them. */
const COLUMNS: ExportColumn[] = [
  { header: 'Fecha', width: 20, value: (e) => spainWallClock(Date.parse(e.at)), format: 'dd/mm/yyyy hh:mm:ss' },
  { header: 'Usuario', width: 30, value: (e) => e.actor?.email ?? '' },
  { header: 'Nombre', width: 24, value: (e) => e.actor?.name ?? '' },
  { header: 'En nombre de', width: 24, value: (e) => e.onBehalfOf?.email ?? '' },
  { header: 'Marca', width: 12, value: (e) => e.brand },
  { header: 'Tipo', width: 12, value: (e) => (e.kind === 'call' ? 'Llamada' : 'Administración') },
  { header: 'Llamada', width: 50, value: (e) => e.call },
  { header: 'Acción', width: 20, value: (e) => e.action ?? e.callId ?? '' },
  { header: 'Entidad', width: 14, value: (e) => e.record?.entity ?? '' },
  { header: 'Registro', width: 20, value: (e) => e.record?.id ?? '' },
  { header: 'Estado HTTP', width: 12, value: (e) => e.outcome.status },
  { header: 'Correcta', width: 10, value: (e) => (e.outcome.ok ? 'Sí' : 'No') },
  { header: 'Resumen', width: 60, value: (e) => e.summary ?? '' },
  { header: 'Cambios', width: 60, value: (e) => changesText(e) ?? '' },
  { header: 'Versión', width: 10, value: (e) => e.version ?? '' },
  { header: 'Petición', width: 28, value: (e) => e.requestId },
]

/** Rows written between two waits for the socket. */
const ROWS_PER_TURN = 200

/**
 * Streams the entries as an XLSX workbook (one sheet, bold frozen header, Spanish headers,
 * dates in Spain's time): rows are written as they are read, and the writer waits whenever the
 * client is behind, so a long export is never held whole in memory. A client that goes away
 * stops it.
 */
export function sendAuditXlsx(reply: FastifyReply, fileName: string, entries: AsyncIterable<AuditEntry>): FastifyReply {
  const stream = new PassThrough()
  reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false })
  const write = async () => {
    const sheet = workbook.addWorksheet('Auditoría', { views: [{ state: 'frozen', ySplit: 1 }] })
    sheet.columns = COLUMNS.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width, style: c.format ? { numFmt: c.format } : {} }))
    sheet.getRow(1).font = { bold: true }
    sheet.getRow(1).commit()
    let written = 0
    for await (const entry of entries) {
      sheet.addRow(Object.fromEntries(COLUMNS.map((c, i) => [`c${i}`, c.value(entry)]))).commit()
      if (++written % ROWS_PER_TURN === 0) {
        if (stream.destroyed) throw new Error('export abandoned by the client')
        if (stream.writableNeedDrain) await Promise.race([once(stream, 'drain'), once(stream, 'close')])
      }
    }
    sheet.commit()
    await workbook.commit()
  }
  write().catch((err: Error) => stream.destroy(err))
  return reply.send(stream)
}
