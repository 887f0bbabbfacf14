import type { BodyField, Endpoint, Param } from '../../schemas/catalogue/endpoint'
import type { CallIndex, CallMatch } from '../../schemas/catalogue/match'
import { EXPORT_COLUMN_PARAMS, EXPORT_FIELD_PATTERN, MAX_EXPORT_COLUMNS } from '../../schemas/catalogue/paging'

/**
 * What the proxy forwards, decided from the catalogue: a request target is matched to its
 * call, every query and path parameter is checked against the call's declaration, and the
 * target sent upstream is rebuilt from what was checked (the catalogue's spelling of the path,
 * each value re-encoded, the query in declared order). Anything undeclared, malformed or out of
 * bounds is refused with a Spanish message naming the parameter; the upstream never sees it.
 */

export interface CheckedCall {
  call: Endpoint
  /** `/api/…?…` exactly as it goes upstream. */
  upstreamPath: string
  /** Path parameters as the request spelt them (decoded; checked). */
  pathParams: Readonly<Record<string, string>>
  /** Checked query values by parameter (arrays for array parameters). */
  query: ReadonlyMap<string, string | string[]>
  /** The query parameters whose values the catalogue marks as personal data: what logs mask. */
  personalQuery: ReadonlySet<string>
}

/** A refusal names the call when the target matched one (its parameters were wrong): the audit records refused mutations. */
export type TargetCheck = { ok: true; checked: CheckedCall } | { ok: false; status: 400 | 404; message: string; call?: Endpoint }

const NOT_FOUND = { ok: false as const, status: 404 as const, message: 'Recurso no encontrado.' }

/** Paging of lists (spec §7): pageSize up to the reference API's 500; exports may ask for every row with -1. */
const MAX_PAGE_SIZE = 500
const MAX_FILTERS = 50
const SORT_ORDERS = ['asc', 'desc', 'ascending', 'descending', '1', '-1']
/** A text parameter without its own bound. */
const DEFAULT_MAX_LENGTH = 2000
const MAX_ARRAY_ITEMS = 1000

type Checker = (raw: string) => string | { error: string }

interface CompiledParam {
  name: string
  spec: Param
  check: Checker
}

interface CompiledCall {
  call: Endpoint
  /** Upstream path segments, `null` where the path parameter of `names[i]` goes. */
  segments: (string | null)[]
  /** The upstream path of a call without path parameters, built once; null for templates. */
  staticPath: string | null
  pathParams: CompiledParam[]
  /** Query parameters in declared order (paging first for lists). */
  query: CompiledParam[]
  queryByName: Map<string, CompiledParam>
  personalQuery: ReadonlySet<string>
}

export class CallChecker {
  private readonly compiled = new Map<Endpoint, CompiledCall>()

  constructor(readonly index: CallIndex) {
    for (const call of index.calls) this.compiled.set(call, compile(call))
  }

  /** The call of a path split in segments and decoded (templates, escapes), null when none, 'bad' when not UTF-8. */
  private matchSegments(method: string, path: string): CallMatch | null | 'bad' {
    const segments = path.slice(1).split('/')
    if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop()
    try {
      return this.index.match(method, segments.map(decodeSegment))
    } catch {
      return 'bad'
    }
  }

  /** The call a canonical target (`/api/…?…`, as the request-target step left it) names, checked. */
  checkTarget(method: string, url: string): TargetCheck {
    const q = url.indexOf('?')
    const path = q < 0 ? url : url.slice(0, q)
    // Most requests name a call without path parameters, spelt plainly: one map lookup.
    const plain = path.indexOf('%') < 0 ? this.index.exactCall(method, path.length > 1 && path.endsWith('/') ? path.slice(1, -1) : path.slice(1)) : undefined
    const match = plain ? { call: plain, pathParams: NO_PARAMS } : this.matchSegments(method, path)
    if (match === 'bad') return { ok: false, status: 400, message: 'La dirección de la petición no es válida: la ruta no es UTF-8.' }
    if (!match || match.call.access === 'bff') return NOT_FOUND
    const c = this.compiled.get(match.call)!

    let upstream = c.staticPath ?? ''
    if (c.staticPath === null) {
      let n = 0
      for (const s of c.segments) {
        if (s !== null) {
          upstream += `/${s}`
          continue
        }
        const p = c.pathParams[n++]!
        const value = p.check(match.pathParams[p.name]!)
        if (typeof value !== 'string') return bad(`El parámetro «${p.name}»${labelOf(p.spec)} de la ruta ${value.error}.`, c.call)
        upstream += `/${encodeURIComponent(value)}`
      }
    }

    const query = q < 0 ? NO_QUERY : parseQuery(url.slice(q + 1), c)
    if ('error' in query) return bad(query.error, c.call)
    let serialized = ''
    for (const p of c.query) {
      const value = query.get(p.name)
      if (value === undefined) {
        if (p.spec.required) return bad(`Falta el parámetro «${p.name}»${labelOf(p.spec)}.`, c.call)
        continue
      }
      if (Array.isArray(value)) value.forEach((v, i) => (serialized += `&${p.name}[${i}]=${encodeURIComponent(v)}`))
      else serialized += `&${p.name}=${encodeURIComponent(value)}`
    }
    if (c.call.list) {
      const columns = query.get('filterColumns')
      const queries = query.get('filterQueries')
      if ((columns?.length ?? 0) !== (queries?.length ?? 0)) return bad('filterColumns y filterQueries deben tener el mismo número de valores.', c.call)
    }
    return { ok: true, checked: { call: c.call, upstreamPath: serialized ? `${upstream}?${serialized.slice(1)}` : upstream, pathParams: match.pathParams, query, personalQuery: c.personalQuery } }
  }
}

const bad = (message: string, call: Endpoint) => ({ ok: false as const, status: 400 as const, message, call })
const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>
const NO_QUERY: ReadonlyMap<string, string | string[]> = new Map()

function decodeSegment(s: string): string {
  return s.indexOf('%') < 0 ? s : decodeURIComponent(s)
}

/** A query string split and checked: `name=v`, `name[i]=v` or a repeated `name` for array parameters. */
function parseQuery(query: string, c: CompiledCall): Map<string, string | string[]> | { error: string } {
  const out = new Map<string, string | string[]>()
  const indexed = new Map<string, string[]>()
  for (const part of query.split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    let key: string
    let raw: string
    try {
      key = decodeQueryComponent(eq < 0 ? part : part.slice(0, eq))
      raw = eq < 0 ? '' : decodeQueryComponent(part.slice(eq + 1))
    } catch {
      return { error: 'La consulta de la petición no es UTF-8 válido.' }
    }
    let name = key
    let index: number | null = null
    const bracket = key.indexOf('[')
    if (bracket > 0 && key.endsWith(']')) {
      name = key.slice(0, bracket)
      const inner = key.slice(bracket + 1, -1)
      if (inner !== '' && !/^\d{1,4}$/.test(inner)) return { error: `El parámetro «${key.slice(0, 80)}» no se admite en esta llamada.` }
      index = inner === '' ? -1 : Number(inner)
    }
    const p = c.queryByName.get(name)
    if (!p) return { error: `El parámetro «${name.slice(0, 80)}» no se admite en esta llamada.` }
    if (!p.spec.array && (index !== null || out.has(name))) return { error: `El parámetro «${name}»${labelOf(p.spec)} no admite varios valores.` }
    // An empty value is no value: the client leaves out what the user left blank.
    if (raw === '') continue
    const value = p.check(raw)
    if (typeof value !== 'string') return { error: `El parámetro «${name}»${labelOf(p.spec)} ${value.error}.` }
    if (!p.spec.array) {
      out.set(name, value)
      continue
    }
    const list = indexed.get(name) ?? []
    if (index === null || index < 0) list.push(value)
    else list[index] = value
    if (list.length > (p.spec.maxItems ?? MAX_ARRAY_ITEMS)) return { error: `El parámetro «${name}»${labelOf(p.spec)} admite como mucho ${p.spec.maxItems ?? MAX_ARRAY_ITEMS} valores.` }
    indexed.set(name, list)
  }
  // Indexed values keep their order; gaps left by skipped indexes close up.
  for (const [name, list] of indexed) out.set(name, list.filter((v) => v !== undefined))
  return out
}

function decodeQueryComponent(s: string): string {
  const plus = s.indexOf('+') < 0 ? s : s.replace(/\+/g, ' ')
  return plus.indexOf('%') < 0 ? plus : decodeURIComponent(plus)
}

const labelOf = (spec: { label?: string }) => (spec.label ? ` (${spec.label})` : '')

function compile(call: Endpoint): CompiledCall {
  const segments: (string | null)[] = []
  const pathParams: CompiledParam[] = []
  for (const part of call.path.split('/')) {
    const m = /^\{([A-Za-z][A-Za-z0-9]*)\}$/.exec(part)
    if (!m) {
      segments.push(part)
      continue
    }
    segments.push(null)
    const spec = call.pathParams![m[1]!]!
    pathParams.push({ name: m[1]!, spec, check: textChecker(spec) })
  }
  const query: CompiledParam[] = []
  if (call.list) {
    const paging: Record<string, Param> = {
      pageIndex: { type: 'integer', min: 0, max: 10_000_000, label: 'la página' },
      pageSize: call.list.mode === 'export' ? { type: 'integer', min: -1, max: MAX_PAGE_SIZE, label: 'el tamaño de página' } : { type: 'integer', min: 1, max: MAX_PAGE_SIZE, label: 'el tamaño de página' },
      sortColumn: { type: 'string', enum: call.list.sortable.length ? call.list.sortable : ['—'], label: 'la columna de orden' },
      sortOrder: { type: 'string', enum: SORT_ORDERS, label: 'el sentido del orden' },
      filterColumns: { type: 'string', array: true, maxItems: MAX_FILTERS, enum: call.list.filterable.length ? call.list.filterable : ['—'], label: 'las columnas de filtro' },
      filterQueries: { type: 'string', array: true, maxItems: MAX_FILTERS, maxLength: 200, personal: 'free', label: 'los valores de filtro' },
    }
    for (const [name, spec] of Object.entries(paging)) query.push({ name, spec, check: pagingChecker(name, spec) })
    if (call.list.pages) {
      const columns: Record<(typeof EXPORT_COLUMN_PARAMS)[number], Param> = {
        columns: { type: 'string', array: true, maxItems: MAX_EXPORT_COLUMNS, pattern: EXPORT_FIELD_PATTERN, label: 'las columnas que se exportan' },
        labels: { type: 'string', array: true, maxItems: MAX_EXPORT_COLUMNS, maxLength: 100, label: 'los títulos de las columnas' },
      }
      for (const [name, spec] of Object.entries(columns)) query.push({ name, spec, check: textChecker(spec) })
    }
  }
  for (const [name, spec] of Object.entries(call.query ?? {})) query.push({ name, spec, check: textChecker(spec) })
  const personalQuery = new Set(query.filter((p) => p.spec.personal).map((p) => p.name))
  const staticPath = pathParams.length === 0 ? `/${call.path}` : null
  return { call, segments, staticPath, pathParams, query, queryByName: new Map(query.map((p) => [p.name, p])), personalQuery }
}

/** sortOrder is compared without regard to case; pageSize -1 of exports is the only value below 1. */
function pagingChecker(name: string, spec: Param): Checker {
  const base = textChecker(spec)
  if (name === 'sortOrder') return (raw) => base(raw.toLowerCase())
  if (name === 'pageSize' && spec.min === -1) {
    return (raw) => {
      const v = base(raw)
      return v === '0' ? { error: 'debe ser -1 (todas las filas) o estar entre 1 y 500' } : v
    }
  }
  return base
}

const INTEGER = /^-?\d{1,15}$/
const NUMBER = /^-?\d{1,15}(?:\.\d{1,15})?$/
const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATETIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

const isRealDay = (v: string) => {
  const d = new Date(`${v.slice(0, 10)}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v.slice(0, 10)
}

/** The check of one parameter sent as text: its canonical text, or what is wrong with it. */
export function textChecker(spec: Param): Checker {
  const pattern = spec.pattern ? new RegExp(`^(?:${spec.pattern})$`, 'u') : null
  const allowed = spec.enum ? new Set(spec.enum) : null
  const maxLength = spec.maxLength ?? DEFAULT_MAX_LENGTH
  const bounds = (n: number): { error: string } | null => {
    if (spec.min !== undefined && n < spec.min) return { error: `debe ser como mínimo ${spec.min}` }
    if (spec.max !== undefined && n > spec.max) return { error: `no puede ser mayor que ${spec.max}` }
    return null
  }
  switch (spec.type) {
    case 'integer':
      return (raw) => {
        const v = raw.trim()
        if (!INTEGER.test(v)) return { error: 'debe ser un número entero' }
        const n = Number(v)
        return bounds(n) ?? String(n)
      }
    case 'number':
      return (raw) => {
        const v = raw.trim()
        if (!NUMBER.test(v)) return { error: 'debe ser un número (con punto decimal)' }
        const n = Number(v)
        return bounds(n) ?? String(n)
      }
    case 'boolean':
      return (raw) => {
        const v = raw.trim().toLowerCase()
        if (v === 'true' || v === '1') return 'true'
        if (v === 'false' || v === '0') return 'false'
        return { error: 'debe ser true o false' }
      }
    case 'date':
      return (raw) => (DATE.test(raw) && isRealDay(raw) ? raw : { error: 'debe ser una fecha AAAA-MM-DD' })
    case 'datetime':
      return (raw) => (DATETIME.test(raw) && isRealDay(raw) ? raw : { error: 'debe ser una fecha y hora ISO 8601' })
    case 'string':
      return (raw) => {
        if (raw.length > maxLength) return { error: `no puede tener más de ${maxLength} caracteres` }
        if (spec.minLength !== undefined && raw.length < spec.minLength) return { error: `debe tener al menos ${spec.minLength} caracteres` }
        if (allowed && !allowed.has(raw)) return { error: `debe ser uno de: ${[...allowed].slice(0, 30).join(', ')}` }
        if (pattern && !pattern.test(raw)) return { error: 'no tiene el formato esperado' }
        return raw
      }
  }
}

// ── JSON bodies ─────────────────────────────────────────────────────────────

/** The body of a JSON call checked against its declaration: null when it passes, else the Spanish reason. */
export function checkJsonBody(call: Endpoint, body: unknown): string | null {
  const spec = call.body
  if (!spec || spec.kind !== 'json') return null
  if (body === undefined) return spec.optional || (spec.shape === 'object' && !Object.values(spec.fields ?? {}).some((f) => f.required)) ? null : 'Falta el cuerpo de la petición (JSON).'
  if (spec.shape === 'array') {
    if (!Array.isArray(body)) return 'El cuerpo de la petición debe ser una lista JSON.'
    if (body.length > (spec.maxItems ?? MAX_ARRAY_ITEMS)) return `El cuerpo de la petición admite como mucho ${spec.maxItems ?? MAX_ARRAY_ITEMS} elementos.`
    if (spec.items) for (let i = 0; i < body.length; i++) {
      const problem = fieldProblem(spec.items, body[i])
      if (problem) return `El elemento ${i} del cuerpo ${problem}.`
    }
    return null
  }
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body)
  if (spec.shape === 'object' && !isObject) return 'El cuerpo de la petición debe ser un objeto JSON.'
  if (!isObject || !spec.fields) return null
  const record = body as Record<string, unknown>
  for (const [name, field] of Object.entries(spec.fields)) {
    const value = record[name]
    if (value === undefined || value === null || value === '') {
      if (field.required) return `Falta el campo «${name}»${labelOf(field)} en el cuerpo de la petición.`
      continue
    }
    const problem = fieldProblem(field, value)
    if (problem) return `El campo «${name}»${labelOf(field)} ${problem}.`
  }
  if (!spec.open) {
    // Own keys only: `in` would also admit what every object inherits (`toString`, `__proto__`).
    for (const name of Object.keys(record)) if (!Object.hasOwn(spec.fields, name)) return `El campo «${name.slice(0, 80)}» no se admite en esta llamada.`
  }
  return null
}

/** What is wrong with one body value (present, not null), or null. */
function fieldProblem(field: BodyField, value: unknown): string | null {
  switch (field.type) {
    case 'any':
      return null
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? null : 'debe ser un objeto'
    case 'array':
      if (!Array.isArray(value)) return 'debe ser una lista'
      return value.length > (field.maxItems ?? MAX_ARRAY_ITEMS) ? `admite como mucho ${field.maxItems ?? MAX_ARRAY_ITEMS} elementos` : null
  }
  const param = field as Param
  if (param.array) {
    if (!Array.isArray(value)) return 'debe ser una lista'
    if (value.length > (param.maxItems ?? MAX_ARRAY_ITEMS)) return `admite como mucho ${param.maxItems ?? MAX_ARRAY_ITEMS} elementos`
    for (const item of value) {
      const problem = scalarProblem(param, item)
      if (problem) return problem
    }
    return null
  }
  return scalarProblem(param, value)
}

const scalarCheckers = new WeakMap<Param, Checker>()

/** A JSON scalar checked as its text would be: numbers may come as JSON numbers or digit strings, flags as booleans or text. */
function scalarProblem(param: Param, value: unknown): string | null {
  let check = scalarCheckers.get(param)
  if (!check) {
    check = textChecker(param)
    scalarCheckers.set(param, check)
  }
  if (param.type === 'boolean' && typeof value === 'boolean') return null
  if ((param.type === 'integer' || param.type === 'number') && typeof value === 'number') {
    if (!Number.isFinite(value) || (param.type === 'integer' && !Number.isInteger(value))) return param.type === 'integer' ? 'debe ser un número entero' : 'debe ser un número'
    const result = check(String(value))
    return typeof result === 'string' ? null : result.error
  }
  if (typeof value !== 'string' && !(param.type === 'string' && typeof value === 'number')) {
    return param.type === 'string' ? 'debe ser un texto' : param.type === 'boolean' ? 'debe ser true o false' : param.type === 'integer' ? 'debe ser un número entero' : param.type === 'number' ? 'debe ser un número' : 'debe ser una fecha'
  }
  // A date field of a form may carry the whole timestamp the date picker gave.
  const text = String(value)
  const result = param.type === 'date' && text.length > 10 ? textChecker({ ...param, type: 'datetime' })(text) : check(text)
  return typeof result === 'string' ? null : result.error
}
