import { afterEach, describe, expect, it } from 'vitest'
import { isMasked } from '../../schemas/personal-data'
import { personalTree } from '../../schemas/personal-paths'
import type { SheetPlan } from '../../server/personal/list-export-sheet'
import { ListExportThread } from '../../server/personal/list-export-thread'
import { readSheet } from './support/list-export-support'

/**
 * Issue 19, isolation: a list export's pages are parsed, masked and written as XLSX in a thread
 * of its own (`ListExportThread`), never on the BFF's event loop. These tests hold the thread to
 * what the export on the event loop did: the same rows and masking, a broken download (never a
 * complete-looking one) when a page fails, nothing read ahead of a client that is behind, and
 * nothing left working for a client that went away or a thread that stopped.
 */

const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
// The holder's name differs row to row as real ones do, so the file does not shrink to nothing in the zip.
const noise = (id: number) => Array.from({ length: 6 }, (_, i) => (Math.imul(id + i, 2654435761) >>> 0).toString(36)).join(' ')
const row = (id: number) => ({ Id: id, Titular: `Titular ${noise(id)}`, Nif: '12345678Z', FechaAlta: '2026-03-0' + ((id % 9) + 1) })
const pageOf = (index: number, size: number, total: number) => ({ Items: Array.from({ length: Math.max(0, Math.min(size, total - index * size)) }, (_, i) => row(index * size + i + 1)), TotalCount: total })
const plan = (over: Partial<SheetPlan> = {}): SheetPlan => ({ sheetName: 'Contratos', fields: ['Id', 'Titular', 'Nif', 'FechaAlta'], labels: null, mask: personalTree({ 'Items[].Nif': 'nif' }), all: true, pageSize: 3, ...over })

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** Waits until `count()` has not moved for `quietMs`, and returns it. */
async function settled(count: () => number, quietMs = 400): Promise<number> {
  let last = -1
  while (count() !== last) {
    last = count()
    await new Promise((r) => setTimeout(r, quietMs))
  }
  return last
}

let thread: ListExportThread

/** A 100-page export of 500-row pages on a new thread: its file, and how many pages it has read. */
async function bigExport(): Promise<{ file: NodeJS.ReadableStream; total: number; reads: () => number }> {
  thread = new ListExportThread()
  const size = 500
  const total = 100 * size
  const opened = await thread.open(plan({ pageSize: size }), bytesOf(pageOf(0, size, total)))
  let reads = 0
  const file = thread.stream(opened.id, async (n) => (reads++, bytesOf(pageOf(n, size, total))))
  return { file, total, reads: () => reads }
}
afterEach(async () => {
  await thread?.close()
})

describe('the export thread', () => {
  it('writes every row of every page, masked, the extent and fields known from the first page', async () => {
    thread = new ListExportThread()
    const total = 8
    const opened = await thread.open(plan(), bytesOf(pageOf(0, 3, total)))
    expect(opened.head).toEqual({ total, fields: ['Id', 'Titular', 'Nif', 'FechaAlta'] })
    const asked: number[] = []
    const file = await collect(thread.stream(opened.id, async (n) => (asked.push(n), bytesOf(pageOf(n, 3, total)))))
    expect(asked).toEqual([1, 2])
    const sheet = await readSheet(file)
    expect(sheet.name).toBe('Contratos')
    expect(sheet.headers).toEqual(['Id', 'Titular', 'Nif', 'FechaAlta'])
    expect(sheet.rows.map((r) => Number(r[0]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(sheet.rows.every((r) => isMasked(r[2]!) && r[2] !== '12345678Z')).toBe(true)
    // Days are Excel dates (read back as ISO days), not texts.
    expect(sheet.rows[0]![3]).toBe('2026-03-02')
  })

  it('a clear export keeps the values; without named fields, the first row’s keys head the columns', async () => {
    thread = new ListExportThread()
    const opened = await thread.open(plan({ mask: null, fields: null, all: false, labels: null }), bytesOf(pageOf(0, 3, 8)))
    expect(opened.head).toEqual({ total: 3, fields: ['Id', 'Titular', 'Nif', 'FechaAlta'] })
    const sheet = await readSheet(await collect(thread.stream(opened.id, () => Promise.reject(new Error('one page only')))))
    expect(sheet.rows.map((r) => r[2])).toEqual(['12345678Z', '12345678Z', '12345678Z'])
  })

  it('bytes that are not a page of the list open nothing', async () => {
    thread = new ListExportThread()
    for (const bytes of [new TextEncoder().encode('<html>error</html>'), bytesOf({ items: [] }), bytesOf({ Items: [1, 2], TotalCount: 2 }), bytesOf(null)]) {
      expect((await thread.open(plan(), bytes)).head).toBeNull()
    }
    // Nothing is left open of them (an open export holds the thread, and the process, alive).
    expect(thread.running).toBe(0)
  })

  it('a page that cannot be read mid-file breaks the download instead of ending it', async () => {
    thread = new ListExportThread()
    const opened = await thread.open(plan(), bytesOf(pageOf(0, 3, 9)))
    const file = thread.stream(opened.id, async (n) => (n === 2 ? Promise.reject(new Error('export page 2 refused: 503')) : bytesOf(pageOf(n, 3, 9))))
    await expect(collect(file)).rejects.toThrow(/refused: 503/)
    // A page that is not one breaks it too.
    const again = await thread.open(plan(), bytesOf(pageOf(0, 3, 9)))
    await expect(collect(thread.stream(again.id, async () => bytesOf({ Items: 'no' })))).rejects.toThrow(/not a page/)
  })

  it('reads no further ahead of a client that is behind, and finishes once it reads on', async () => {
    const { file, total, reads } = await bigExport()
    const heldAt = await settled(reads)
    expect(heldAt).toBeLessThan(99)
    const sheet = await readSheet(await collect(file))
    expect(reads()).toBe(99)
    expect(sheet.rows).toHaveLength(total)
  })

  it('stops reading pages when the client goes away, and serves the next export', async () => {
    const { file, reads } = await bigExport()
    for await (const _chunk of file) break // the client reads a little, then leaves
    const atLeave = await settled(reads)
    expect(atLeave).toBeLessThan(99)
    await new Promise((r) => setTimeout(r, 300))
    expect(reads()).toBe(atLeave)

    expect(thread.running).toBe(0)
    const next = await thread.open(plan(), bytesOf(pageOf(0, 3, 4)))
    expect((await readSheet(await collect(thread.stream(next.id, async (n) => bytesOf(pageOf(n, 3, 4)))))).rows).toHaveLength(4)
    expect(thread.running).toBe(0)
  })

  it('a thread that stops breaks the downloads under way; the next export starts a new one', async () => {
    const { file } = await bigExport()
    const read = collect(file)
    await thread.close()
    await expect(read).rejects.toThrow(/export thread stopped/)

    const next = await thread.open(plan(), bytesOf(pageOf(0, 3, 5)))
    expect((await readSheet(await collect(thread.stream(next.id, async (n) => bytesOf(pageOf(n, 3, 5)))))).rows).toHaveLength(5)
  })
})
