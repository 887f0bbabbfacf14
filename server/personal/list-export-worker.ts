import { setPriority } from 'node:os'
import { PassThrough } from 'node:stream'
import { parentPort } from 'node:worker_threads'
import { writeXlsx, type XlsxColumn } from '../lib/xlsx-stream'
import { headOf, pageOf, rowsOf, type Page, type Row, type SheetPlan } from './list-export-sheet'
import { EXPORT_THREAD_NICE, MAX_UNACKED_BYTES, type FromExportThread, type ToExportThread } from './list-export-thread'

/**
 * The export thread (started by `ListExportThread`): turns each export's JSON pages into its
 * XLSX bytes, off the BFF's event loop. Exports run side by side, each known by its id.
 */
const port = parentPort
if (!port) throw new Error('list-export-worker.ts runs only as a worker thread')
// An export is background work: on Linux a thread has its own nice value, so this thread yields
// the CPU to the BFF's event loop (every other user's request) whenever both want it, and
// still runs at full speed on an otherwise idle machine.
try {
  setPriority(EXPORT_THREAD_NICE)
} catch {
  // Where a thread's priority cannot be lowered, the export still runs apart.
}
const send = (message: FromExportThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer)

interface Export {
  plan: SheetPlan
  first: Page
  total: number
  columns: XlsxColumn<Row>[]
  out?: PassThrough
  /** Bytes sent and not yet written to the download. */
  unacked: number
  /** The page asked for and not yet come. */
  waiting?: { resolve: (page: Page) => void; reject: (err: Error) => void }
}

const exports = new Map<number, Export>()

port.on('message', (message: ToExportThread) => {
  const job = exports.get(message.id)
  switch (message.kind) {
    case 'open': {
      const first = pageOf(message.page)
      if (!first) return send({ kind: 'invalid', id: message.id })
      const { total, fields, columns } = headOf(first, message.plan)
      exports.set(message.id, { plan: message.plan, first, total, columns, unacked: 0 })
      return send({ kind: 'head', id: message.id, total, fields })
    }
    case 'start':
      if (job) run(message.id, job)
      return
    case 'page': {
      const page = pageOf(message.page)
      const waiting = job?.waiting
      if (!waiting) return
      delete job.waiting
      if (page) waiting.resolve(page)
      else waiting.reject(new Error('an export page was not a page of the list'))
      return
    }
    case 'refused':
      job?.waiting?.reject(new Error(message.reason))
      return
    case 'ack':
      if (!job?.out) return
      job.unacked -= message.bytes
      if (job.unacked <= MAX_UNACKED_BYTES && job.out.isPaused()) job.out.resume()
      return
    case 'cancel':
      exports.delete(message.id)
      job?.waiting?.reject(new Error('export abandoned by the client'))
      job?.out?.destroy()
      return
  }
})

/** Every row of the export, masked, reading each next page when the file needs it. */
async function* rows(id: number, job: Export): AsyncGenerator<Row> {
  let sent = 0
  let page = job.first
  for (let n = 1; ; n++) {
    for (const row of rowsOf(page, job.plan)) {
      if (sent++ >= job.total) return
      yield row
    }
    if (!job.plan.all || page.Items.length < job.plan.pageSize || sent >= job.total) return
    page = await new Promise<Page>((resolve, reject) => {
      job.waiting = { resolve, reject }
      send({ kind: 'need', id, n })
    })
  }
}

function run(id: number, job: Export): void {
  const out = new PassThrough()
  job.out = out
  out.on('data', (chunk: Buffer) => {
    // A copy of its own: zlib's chunks may be views of a larger buffer.
    const bytes = new Uint8Array(chunk)
    job.unacked += bytes.byteLength
    send({ kind: 'chunk', id, bytes }, [bytes.buffer])
    if (job.unacked > MAX_UNACKED_BYTES) out.pause()
  })
  out.on('end', () => {
    if (exports.delete(id)) send({ kind: 'end', id })
  })
  writeXlsx(out, { sheetName: job.plan.sheetName, columns: job.columns, rows: rows(id, job) }).catch((err: Error) => {
    out.destroy(err)
    if (exports.delete(id)) send({ kind: 'failed', id, message: err.message })
  })
}
