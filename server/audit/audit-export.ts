import type { FastifyReply } from 'fastify'
import type { AuditEntry } from '../../schemas/audit'
import { spainWallClock } from '../lib/spain-time'
import { sendXlsxStream, type XlsxColumn } from '../lib/xlsx-stream'

/** Rows of one export, at most: a filter narrows it further. */
export const MAX_EXPORT_ROWS = 100_000

const changesText = (e: AuditEntry) => e.changes?.map((c) => `${c.field}: ${c.before ?? '—'} → ${c.after ?? '—'}`).join('\n')

/** The columns of the export, Spanish headers, in the order the Auditoría screen shows them. */
const COLUMNS: XlsxColumn<AuditEntry>[] = [
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

/** Streams the entries as an XLSX workbook: Spanish headers, dates in Spain's time. */
export function sendAuditXlsx(reply: FastifyReply, fileName: string, entries: AsyncIterable<AuditEntry>): FastifyReply {
  return sendXlsxStream(reply, { fileName, sheetName: 'Auditoría', columns: COLUMNS, rows: entries })
}
