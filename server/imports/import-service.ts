import { createHash, randomUUID } from 'node:crypto'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { Verdict } from '../../schemas/business/identifiers'
import type { CallIndex } from '../../schemas/catalogue/match'
import { MAX_PROBLEMS_SHOWN, type ImportMapping, type RowOutcome, type RowOutcomeKind, type RowProblem } from '../../schemas/import'
import type { Field } from '../../schemas/screen'
import { HttpError } from '../lib/errors'
import type { TokenCipher } from '../session/token-cipher'
import type { ImportColumnSpec, ResolvedImport } from './import-definitions'
import type { ImportedKey, ImportStore, StoredJob, UndoEntry } from './import-store'
import { checkRow, optionKey, type CheckContext, type OptionItem, type RowCheck } from './row-check'
import type { SessionCalls } from './session-calls'
import type { Table } from './table-file'

/**
 * The life of an import: upload (the table kept sealed), dry run (every row checked, nothing
 * sent), commit (valid rows sent one by one, a few at a time, through the catalogued call with
 * the user's session; progress saved as it goes), undo (records still as the import left them
 * are put back). A row already imported for the brand, by the hash of its normalised body, is
 * not sent again.
 */

/** Rows sent at once: the upstream sees a handful of users' worth of load, not a flood. */
const CONCURRENCY = 4
/** Rows checked between two turns of the event loop. */
const CHECK_SLICE = 250
/** Progress is saved at most this often while rows are being sent. */
const SAVE_EVERY_MS = 400

const EMPTY_COUNTS = (): Record<RowOutcomeKind, number> => ({ created: 0, held: 0, duplicate: 0, failed: 0, invalid: 0 })

export interface ImportLog {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
}

const norm = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()

/** Each column read from the header that names it: its name, or its Spanish or English label. */
export function autoMapping(imp: ResolvedImport, headers: string[]): ImportMapping {
  const mapping: ImportMapping = {}
  const byNorm = new Map<string, string>()
  for (const h of headers) if (h && !byNorm.has(norm(h))) byNorm.set(norm(h), h)
  const labelCount = new Map<string, number>()
  for (const c of imp.columns) for (const l of new Set([norm(c.label.es), norm(c.label.en ?? '')])) labelCount.set(l, (labelCount.get(l) ?? 0) + 1)
  for (const c of imp.columns) {
    const byName = byNorm.get(norm(c.name))
    // A label two columns share (two «Código postal») decides nothing.
    const byLabel = [c.label.es, c.label.en ?? ''].map(norm).find((l) => l && labelCount.get(l) === 1 && byNorm.has(l))
    mapping[c.name] = byName ?? (byLabel ? byNorm.get(byLabel)! : null)
  }
  return mapping
}

/** The key of a row: its import and its normalised body, so a file sent twice matches itself. */
export function rowKey(definition: string, body: unknown): string {
  const sorted = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v
  return createHash('sha256').update(definition).update('\u0000').update(JSON.stringify(sorted(body))).digest('base64url')
}

const itemsAt = (answer: unknown, path: string | undefined): unknown[] => {
  let v = answer
  if (path) for (const part of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined
  return Array.isArray(v) ? v : []
}

const labelOf = (label: Field['label'] | undefined): string[] => (label === undefined ? [] : typeof label === 'string' ? [label] : [label.es, label.en ?? ''])

export class ImportService {
  /** Jobs running on this replica (the store has their progress for every replica). */
  private readonly running = new Set<string>()

  constructor(
    private readonly opts: { store: ImportStore; cipher: TokenCipher; imports: ReadonlyMap<string, ResolvedImport>; catalogue: CallIndex; log: ImportLog; now?: () => number },
  ) {}

  definition(id: string): ResolvedImport | undefined {
    return this.opts.imports.get(id)
  }

  private now() {
    return (this.opts.now ?? Date.now)()
  }

  async upload(imp: ResolvedImport, owner: { userId: number; brand: string }, fileName: string, table: Table): Promise<StoredJob> {
    const id = randomUUID()
    const job: StoredJob = {
      id,
      definition: imp.def.id,
      fileName: fileName.slice(0, 200),
      state: 'uploaded',
      headers: table.headers,
      rowCount: table.rows.length,
      mapping: autoMapping(imp, table.headers),
      progress: { done: 0, total: 0 },
      counts: EMPTY_COUNTS(),
      outcomes: [],
      brand: owner.brand,
      ownerId: owner.userId,
      createdAt: this.now(),
      undoData: [],
    }
    // The parse just held the event loop: let waiting requests through before sealing the rows.
    await nextTurn()
    await this.opts.store.saveRows(id, this.opts.cipher.encrypt(JSON.stringify(table), `import:${id}`))
    await this.opts.store.saveJob(job)
    return job
  }

  /** The job if it is this user's, in this brand; else a 404 (another's job is not there for them). */
  async jobOf(id: string, owner: { userId: number; brand: string }): Promise<StoredJob> {
    const job = /^[0-9a-f-]{36}$/.test(id) ? await this.opts.store.job(id) : null
    if (!job || job.ownerId !== owner.userId || job.brand !== owner.brand) throw new HttpError(404, 'No existe esa importación (o ha caducado).')
    return job
  }

  private async tableOf(job: StoredJob): Promise<Table> {
    const sealed = await this.opts.store.rows(job.id)
    const clear = sealed === null ? null : this.opts.cipher.decrypt(sealed, `import:${job.id}`)
    if (clear === null) throw new HttpError(410, 'El archivo de esta importación ya no está disponible: súbelo de nuevo.')
    return JSON.parse(clear) as Table
  }

  /** Every row's cells by column, read through the mapping. */
  private cellsOf(imp: ResolvedImport, table: Table, mapping: ImportMapping): Record<string, string>[] {
    const index = new Map<string, number>()
    for (const col of imp.columns) {
      const header = mapping[col.name]
      if (header) {
        const i = table.headers.indexOf(header)
        if (i < 0) throw new HttpError(400, `La columna «${header.slice(0, 80)}» no está en el archivo.`)
        index.set(col.name, i)
      }
    }
    return table.rows.map((r) => {
      const cells: Record<string, string> = {}
      for (const [name, i] of index) cells[name] = r.cells[i] ?? ''
      return cells
    })
  }

  /** Every row checked; duplicates of the file, of earlier imports and of live imported drafts found. */
  private async checkAll(imp: ResolvedImport, job: StoredJob, table: Table, calls: SessionCalls) {
    for (const name of Object.keys(job.mapping)) if (!imp.byName.has(name)) throw new HttpError(400, `La columna «${name.slice(0, 80)}» no es de esta importación.`)
    const cells = this.cellsOf(imp, table, job.mapping)
    const ctx = await this.context(imp, calls, cells)
    const checks: { line: number; check: RowCheck; key?: string; duplicateOf?: string }[] = []
    for (let i = 0; i < cells.length; i++) {
      // Thousands of rows are checked in slices: other users' requests are served in between.
      if (i % CHECK_SLICE === CHECK_SLICE - 1) await nextTurn()
      const check = checkRow(imp, cells[i]!, ctx)
      checks.push({ line: table.rows[i]!.line, check, key: check.body ? rowKey(imp.def.id, check.body) : undefined })
    }
    // What earlier imports left, asked for all rows at once.
    const imported = await this.opts.store.peekMany(job.brand, imp.def.id, [...new Set(checks.flatMap((c) => (c.key ? [c.key] : [])))])
    const holders = imp.def.unique ? await this.opts.store.uniqueHolders(job.brand, imp.def.id, [...new Set(checks.flatMap((c) => (c.check.unique ? [c.check.unique] : [])))]) : new Map<string, ImportedKey & { key: string }>()
    const seenKeys = new Map<string, number>()
    const seenUnique = new Map<string, number>()
    const liveHolders = new Map<string, string | null>()
    for (const entry of checks) {
      const { check, key, line } = entry
      if (key) {
        const earlier = seenKeys.get(key)
        if (earlier !== undefined) check.problems.push({ column: '', message: `Repite la fila ${earlier} de este archivo.` })
        else {
          seenKeys.set(key, line)
          const held = imported.get(key)
          if (held) entry.duplicateOf = held.record ?? ''
        }
      }
      if (check.unique && entry.duplicateOf === undefined) {
        const other = seenUnique.get(check.unique)
        if (other !== undefined && check.problems.length === 0) check.problems.push({ column: imp.def.unique!, message: `Este valor ya está en la fila ${other} de este archivo.` })
        else if (other === undefined) seenUnique.set(check.unique, line)
        const holder = holders.get(check.unique)
        const live = holder ? await this.liveHolder(imp, holder, calls, liveHolders) : null
        if (live && check.problems.length === 0) check.problems.push({ column: imp.def.unique!, message: `Ya tiene un contrato en borrador de una importación (${live}).` })
      }
      if (check.problems.length > 0) check.body = null
    }
    return checks
  }

  /** The record an earlier import left in its first state holding a unique value (a CUPS's draft), if it still is. */
  private async liveHolder(imp: ResolvedImport, holder: ImportedKey & { key: string }, calls: SessionCalls, memo: Map<string, string | null>): Promise<string | null> {
    const record = holder.record
    if (!record || imp.def.undo.kind !== 'delete') return null
    if (memo.has(record)) return memo.get(record)!
    const answer = await calls(imp.readCall, { query: { [imp.def.undo.param]: record } })
    const state = answer.status === 200 ? (answer.json as Record<string, unknown>)[imp.def.undo.state.field] : undefined
    const live = state === imp.def.undo.state.equals ? record : null
    memo.set(record, live)
    return live
  }

  /** The dry run: nothing is sent; the job keeps the mapping and what the check found. */
  async check(imp: ResolvedImport, job: StoredJob, mapping: ImportMapping, calls: SessionCalls): Promise<StoredJob> {
    if (job.state !== 'uploaded' && job.state !== 'checked') throw new HttpError(409, 'Esta importación ya se ha enviado: sube el archivo de nuevo para otra.')
    job.mapping = mapping
    const checks = await this.checkAll(imp, job, await this.tableOf(job), calls)
    const problems: RowProblem[] = []
    let valid = 0
    let invalidRows = 0
    let duplicates = 0
    for (const c of checks) {
      if (c.duplicateOf !== undefined && c.check.body) duplicates++
      else if (c.check.body) valid++
      else invalidRows++
      for (const p of c.check.problems) problems.push({ row: c.line, column: p.column, message: p.message })
    }
    job.state = 'checked'
    job.check = { valid, invalidRows, duplicates, problems: problems.slice(0, MAX_PROBLEMS_SHOWN), problemCount: problems.length }
    await this.opts.store.saveJob(job)
    return job
  }

  /** Starts sending the valid rows; the answer does not wait for them (progress: GET the job). */
  async commit(imp: ResolvedImport, job: StoredJob, calls: SessionCalls): Promise<StoredJob> {
    if (job.state !== 'checked') throw new HttpError(409, job.state === 'uploaded' ? 'Haz antes la comprobación (simulación) del archivo.' : 'Esta importación ya se ha enviado.')
    const checks = await this.checkAll(imp, job, await this.tableOf(job), calls)
    job.state = 'running'
    job.counts = EMPTY_COUNTS()
    job.outcomes = []
    job.undoData = []
    const toSend = checks.filter((c) => c.check.body)
    for (const c of checks) if (!c.check.body) this.outcome(job, { row: c.line, outcome: 'invalid', message: c.check.problems.map((p) => (p.column ? `${imp.byName.get(p.column)?.label.es ?? p.column}: ${p.message}` : p.message)).join(' ') })
    job.progress = { done: 0, total: toSend.length }
    await this.opts.store.saveJob(job)
    this.running.add(job.id)
    this.opts.log.info({ event: 'import_started', import: imp.def.id, job: job.id, rows: toSend.length }, 'import started')
    void this.send(imp, job, toSend, calls).finally(() => this.running.delete(job.id))
    return job
  }

  private outcome(job: StoredJob, o: RowOutcome) {
    job.outcomes.push(o)
    job.counts[o.outcome]++
  }

  private async send(imp: ResolvedImport, job: StoredJob, rows: { line: number; check: RowCheck; key?: string }[], calls: SessionCalls) {
    let lastSave = this.now()
    await eachLimited(rows, CONCURRENCY, async (r) => {
      try {
        await this.sendRow(imp, job, r.line, r.check, r.key!, calls)
      } catch (err) {
        this.opts.log.warn({ event: 'import_row_failed', job: job.id, row: r.line, err: { message: (err as Error).message } }, 'import row failed')
        this.outcome(job, { row: r.line, outcome: 'failed', message: 'No se ha podido enviar esta fila. Inténtalo de nuevo más tarde.' })
      }
      job.progress.done++
      if (this.now() - lastSave > SAVE_EVERY_MS) {
        lastSave = this.now()
        await this.opts.store.saveJob(job).catch(() => undefined)
      }
    })
    job.outcomes.sort((a, b) => a.row - b.row)
    job.state = 'done'
    await this.opts.store.saveJob(job)
    this.opts.log.info({ event: 'import_done', import: imp.def.id, job: job.id, counts: job.counts }, 'import done')
  }

  private async sendRow(imp: ResolvedImport, job: StoredJob, line: number, check: RowCheck, key: string, calls: SessionCalls) {
    const { store } = this.opts
    const body = check.body!
    const claimed = await store.claim(job.brand, imp.def.id, key, { job: job.id, row: line, unique: check.unique })
    if (claimed) {
      this.outcome(job, claimed.record ? { row: line, outcome: 'duplicate', record: claimed.record, message: 'Ya importada.' } : { row: line, outcome: 'duplicate', message: 'Ya importada (pendiente de aprobación o en curso).' })
      return
    }
    let previous: unknown
    if (imp.def.undo.kind === 'restore') {
      const keyValue = String(body[imp.def.undo.key])
      previous = await this.currentValue(imp, keyValue, calls)
    }
    const answer = await calls(imp.call, { body })
    if (answer.status === 202) {
      // Held by four-eyes: remembered (a second run does not ask again); the approver decides.
      await store.settle(job.brand, imp.def.id, key, { job: job.id, row: line, unique: check.unique })
      this.outcome(job, { row: line, outcome: 'held', message: 'Pendiente de aprobación.' })
      return
    }
    if (answer.status >= 300) {
      await store.release(job.brand, imp.def.id, key)
      this.outcome(job, { row: line, outcome: 'failed', message: answer.message })
      return
    }
    const recordValue = (answer.json as Record<string, unknown> | undefined)?.[imp.def.recordField] ?? body[imp.def.recordField]
    const record = recordValue === undefined || recordValue === null ? '' : String(recordValue)
    await store.settle(job.brand, imp.def.id, key, { job: job.id, row: line, record, unique: check.unique })
    const undo: UndoEntry = { row: line, key, record }
    if (imp.def.undo.kind === 'delete') {
      const read = await calls(imp.readCall, { query: { [imp.def.undo.param]: record } })
      const etag = read.headers.etag
      if (read.status === 200 && typeof etag === 'string') undo.version = etag
    } else {
      undo.previous = previous
      undo.imported = body[imp.def.undo.field]
    }
    job.undoData.push(undo)
    this.outcome(job, { row: line, outcome: 'created', record })
  }

  /** The field's current value of a record, read from the import's list call filtered by its key. */
  private async currentValue(imp: ResolvedImport, keyValue: string, calls: SessionCalls): Promise<unknown> {
    if (imp.def.undo.kind !== 'restore') return undefined
    const { key, field } = imp.def.undo
    const answer = await calls(imp.readCall, { query: { pageIndex: 0, pageSize: 50, 'filterColumns[0]': key, 'filterQueries[0]': keyValue } })
    if (answer.status !== 200) return undefined
    const item = itemsAt(answer.json, 'Items').find((i) => String((i as Record<string, unknown>)[key]) === keyValue) as Record<string, unknown> | undefined
    return item?.[field]
  }

  /** Starts undoing a finished import: records as the import left them are put back, others listed. */
  async undo(imp: ResolvedImport, job: StoredJob, calls: SessionCalls): Promise<StoredJob> {
    if (job.state !== 'done') throw new HttpError(409, job.state === 'undone' || job.state === 'undoing' ? 'Esta importación ya se ha deshecho.' : 'Solo se puede deshacer una importación terminada.')
    job.state = 'undoing'
    job.undo = { undone: 0, left: [] }
    job.progress = { done: 0, total: job.undoData.length }
    await this.opts.store.saveJob(job)
    this.running.add(job.id)
    void this.undoAll(imp, job, calls).finally(() => this.running.delete(job.id))
    return job
  }

  private async undoAll(imp: ResolvedImport, job: StoredJob, calls: SessionCalls) {
    const report = job.undo!
    await eachLimited(job.undoData, CONCURRENCY, async (entry) => {
      let reason: string | null
      try {
        reason = await this.undoOne(imp, job, entry, calls)
      } catch (err) {
        this.opts.log.warn({ event: 'import_undo_failed', job: job.id, row: entry.row, err: { message: (err as Error).message } }, 'import undo of a row failed')
        reason = 'No se ha podido deshacer. Inténtalo de nuevo más tarde.'
      }
      if (reason === null) report.undone++
      else report.left.push({ row: entry.row, record: entry.record, reason })
      job.progress.done++
    })
    report.left.sort((a, b) => a.row - b.row)
    job.state = 'undone'
    await this.opts.store.saveJob(job)
    this.opts.log.info({ event: 'import_undone', import: imp.def.id, job: job.id, undone: report.undone, left: report.left.length }, 'import undone')
  }

  /** Null when undone; else why the record was left as it is. */
  private async undoOne(imp: ResolvedImport, job: StoredJob, entry: UndoEntry, calls: SessionCalls): Promise<string | null> {
    const undo = imp.def.undo
    let answer
    if (undo.kind === 'delete') {
      const read = await calls(imp.readCall, { query: { [undo.param]: entry.record } })
      if (read.status === 404) return 'Ya no existe.'
      if (read.status !== 200) return read.message
      const state = (read.json as Record<string, unknown>)[undo.state.field]
      if (state !== undo.state.equals) return `Ha cambiado de estado desde la importación (${String(state)}).`
      if (!entry.version || read.headers.etag !== entry.version) return 'Se ha modificado desde la importación.'
      answer = await calls(imp.undoCall!, { query: { [undo.param]: entry.record }, ifMatch: entry.version })
    } else {
      const current = await this.currentValue(imp, entry.record, calls)
      if (current !== entry.imported) return 'Su subestado ha cambiado desde la importación.'
      if (entry.previous === undefined || entry.previous === null) return 'No se conoce el valor anterior.'
      answer = await calls(imp.call, { body: { [undo.key]: entry.record, [undo.field]: entry.previous } })
    }
    if (answer.status === 202) return 'Pendiente de aprobación.'
    if (answer.status >= 300) return answer.message
    await this.opts.store.release(job.brand, imp.def.id, entry.key)
    return null
  }

  /** The options of every select column, fetched once with the user's session. */
  async context(imp: ResolvedImport, calls: SessionCalls, cellsOfRows: Record<string, string>[]): Promise<CheckContext> {
    const options = new Map<string, Map<string, OptionItem>>()
    for (const col of imp.columns) {
      const source = col.field?.options
      if (!source) continue
      const map = new Map<string, OptionItem>()
      if (Array.isArray(source)) {
        for (const o of source) {
          const item = { value: o.value, item: { Nombre: labelOf(o.label)[0] } }
          for (const k of [String(o.value), ...labelOf(o.label)]) if (k) map.set(optionKey(k), item)
        }
      } else if (source.endpoint) {
        const match = this.callIndex(source.endpoint)
        if (!match) continue
        const answer = await calls(match, { query: Object.fromEntries(Object.entries(source.params ?? {}).map(([k, v]) => [k, String(v)])) })
        if (answer.status !== 200) throw new HttpError(502, `No se han podido obtener las opciones de «${col.label.es}»: ${answer.message}`)
        for (const raw of itemsAt(answer.json, source.path)) {
          const item = raw as Record<string, unknown>
          const value = item[source.valueField] as string | number
          if (value === undefined || value === null) continue
          const entry = { value, item }
          map.set(optionKey(String(value)), entry)
          const label = item[source.labelField]
          if (typeof label === 'string' && label && !map.has(optionKey(label))) map.set(optionKey(label), entry)
        }
      } else continue
      options.set(col.name, map)
    }
    const remote = await this.remoteVerdicts(imp, calls, cellsOfRows)
    return { options, remote }
  }

  private callIndex(endpoint: string) {
    return this.opts.catalogue.find('GET', endpoint)?.call
  }

  /** Validators the portal does not run itself: asked of the upstream once per distinct value. */
  private async remoteVerdicts(imp: ResolvedImport, calls: SessionCalls, cellsOfRows: Record<string, string>[]): Promise<Map<string, Verdict>> {
    const out = new Map<string, Verdict>()
    for (const col of imp.columns.filter((c): c is ImportColumnSpec & { validatorCall: NonNullable<ImportColumnSpec['validatorCall']> } => Boolean(c.validatorCall))) {
      const v = col.field!.validator!
      const values = [...new Set(cellsOfRows.map((r) => (r[col.name] ?? '').trim()).filter(Boolean))]
      await eachLimited(values, 8, async (value) => {
        const answer = await calls(col.validatorCall, { query: { [v.param]: value } })
        if (answer.status !== 200) return
        const a = answer.json as Record<string, unknown>
        out.set(`${col.name}\u0000${value}`, { valid: a[v.validField] === true, normalized: v.normalizedField ? String(a[v.normalizedField] ?? value) : value, reason: typeof a[v.messageField] === 'string' ? (a[v.messageField] as string) : undefined })
      })
    }
    return out
  }
}

/** Runs `work` over `items`, at most `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      await work(items[i]!, i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

