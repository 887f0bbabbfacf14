import { PassThrough } from 'node:stream'
import type { Worker } from 'node:worker_threads'
import { startTsWorker } from '../lib/ts-worker'
import type { SheetPlan } from './list-export-sheet'

/**
 * The thread that builds list exports (issue 19): parsing a 100 000-row list's JSON pages,
 * masking them and writing the XLSX (row XML, zip) is seconds of CPU, which on the BFF's event
 * loop delayed every other user's request by tens of milliseconds for the whole download. The
 * BFF keeps the policy (who may export, the upstream calls with the user's token, the audit)
 * and hands the thread each page's bytes unread; the thread sends back the file's bytes. One
 * thread serves every export, started with the first and kept; the download waits whenever the
 * client is behind (the thread holds at most `MAX_UNACKED_BYTES` not yet written).
 */

/** The thread's nice value (Linux: 19 is the lowest priority). */
export const EXPORT_THREAD_NICE = 19

/** Bytes the thread may send ahead of the download. */
export const MAX_UNACKED_BYTES = 1 << 20

export type ToExportThread =
  | { kind: 'open'; id: number; plan: SheetPlan; page: Uint8Array }
  | { kind: 'start'; id: number }
  | { kind: 'page'; id: number; page: Uint8Array }
  | { kind: 'refused'; id: number; reason: string }
  | { kind: 'ack'; id: number; bytes: number }
  | { kind: 'cancel'; id: number }

export type FromExportThread =
  | { kind: 'head'; id: number; total: number; fields: string[] }
  | { kind: 'invalid'; id: number }
  /** The `n`-th page after the first. */
  | { kind: 'need'; id: number; n: number }
  | { kind: 'chunk'; id: number; bytes: Uint8Array }
  | { kind: 'end'; id: number }
  | { kind: 'failed'; id: number; message: string }

export interface ExportHead {
  total: number
  fields: string[]
}

/** The next page's bytes; rejects (the download then breaks) when it cannot be read. */
export type PageReader = (n: number) => Promise<Uint8Array>

/** The buffer to hand over with the bytes, when they are all of it (a view of a shared buffer is copied). */
const transferable = (bytes: Uint8Array): ArrayBuffer[] => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [])

interface Job {
  head?: { resolve: (head: ExportHead | null) => void; reject: (err: Error) => void }
  out?: PassThrough
  read?: PageReader
}

export class ListExportThread {
  private worker: Worker | null = null
  private readonly jobs = new Map<number, Job>()
  private nextId = 1

  /**
   * Starts an export from its first page: its extent and fields, or null when the bytes are
   * not a page of the list. Then either `stream` it or `cancel` it.
   */
  open(plan: SheetPlan, page: Uint8Array): Promise<{ id: number; head: ExportHead | null }> {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.jobs.set(id, { head: { resolve: (head) => resolve({ id, head }), reject } })
      this.post({ kind: 'open', id, plan, page }, transferable(page))
    })
  }

  /** The file's bytes, read on with `read`; destroying the stream stops the thread's work. */
  stream(id: number, read: PageReader): PassThrough {
    const job = this.jobs.get(id)
    if (!job) throw new Error(`export ${id} is not open`)
    const out = new PassThrough()
    job.out = out
    job.read = read
    out.once('close', () => {
      if (!this.jobs.has(id)) return
      this.jobs.delete(id)
      this.post({ kind: 'cancel', id })
    })
    this.post({ kind: 'start', id })
    return out
  }

  /** Exports opened and not yet ended, cancelled or failed. */
  get running(): number {
    return this.jobs.size
  }

  cancel(id: number): void {
    if (this.jobs.delete(id)) this.post({ kind: 'cancel', id })
  }

  /** Ends the thread (exports under way break). */
  async close(): Promise<void> {
    const worker = this.worker
    this.worker = null
    if (worker) await worker.terminate()
  }

  private post(message: ToExportThread, transfer: ArrayBuffer[] = []): void {
    const worker = (this.worker ??= this.start())
    worker.postMessage(message, transfer)
    this.holdWhileBusy(worker)
  }

  /** An idle thread must not keep the process alive. */
  private holdWhileBusy(worker: Worker): void {
    if (this.jobs.size > 0) worker.ref()
    else worker.unref()
  }

  private start(): Worker {
    const worker = startTsWorker(new URL('./list-export-worker.ts', import.meta.url), null)
    worker.on('message', (message: FromExportThread) => this.onMessage(worker, message))
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = null
      for (const [id, job] of this.jobs) {
        job.head?.reject(err)
        job.out?.destroy(err)
        this.jobs.delete(id)
      }
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`the export thread stopped (exit code ${code})`)))
    return worker
  }

  private onMessage(worker: Worker, message: FromExportThread): void {
    const job = this.jobs.get(message.id)
    if (job) this.handle(message, job)
    this.holdWhileBusy(worker)
  }

  private handle(message: FromExportThread, job: Job): void {
    const { id } = message
    switch (message.kind) {
      case 'head':
      case 'invalid': {
        const head = job.head
        delete job.head
        // Bytes that were not a page open nothing: the thread kept nothing of them either.
        if (message.kind === 'invalid') this.jobs.delete(id)
        head?.resolve(message.kind === 'head' ? { total: message.total, fields: message.fields } : null)
        return
      }
      case 'need':
        job.read!(message.n).then(
          (page) => this.jobs.has(id) && this.post({ kind: 'page', id, page }, transferable(page)),
          (err: Error) => this.jobs.has(id) && this.post({ kind: 'refused', id, reason: err.message }),
        )
        return
      case 'chunk': {
        const bytes = message.bytes.byteLength
        const ack = () => this.jobs.has(id) && this.post({ kind: 'ack', id, bytes })
        if (job.out!.write(message.bytes)) ack()
        else job.out!.once('drain', ack)
        return
      }
      case 'end':
        this.jobs.delete(id)
        job.out!.end()
        return
      case 'failed':
        this.jobs.delete(id)
        job.out!.destroy(new Error(message.message))
        return
    }
  }
}
