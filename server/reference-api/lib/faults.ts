import type { FastifyInstance, FastifyRequest } from 'fastify'
import { fail } from './http'
import { tolerantJsonBodies } from './json-body'

/**
 * Faults on purpose (tests only): make chosen calls answer an error status with an empty body,
 * optionally after a delay, so every failure path of the portal can be exercised through the
 * BFF; or keep the API's thread busy computing (`BusyMs`), as a large export does, so tests can
 * show that the portal stays responsive meanwhile. Never installed in production (`NODE_ENV=production`): the control routes then do not
 * exist (404) and `REFERENCE_API_FAULTS` is ignored.
 *
 *   REFERENCE_API_FAULTS="GET /api/contract/id=500;POST /api/contract/insert=503:2000"
 *   POST   /api/__test/faults { Method, Path, Status, DelayMs?, BusyMs?, Times?, Scope? } → 201 the fault
 *   GET    /api/__test/faults                                             → 200 the list
 *   DELETE /api/__test/faults                                             → 204 (all)
 *   DELETE /api/__test/faults/:id                                         → 204, 404 when gone
 */

export interface FaultInput {
  Method: string
  Path: string
  /** 0 = no error: only the delay, then the call goes on normally. */
  Status: number
  DelayMs: number
  /** Then computes that long before going on, blocking the API's own event loop (0 or absent: not at all). */
  BusyMs?: number
  /** How many matching calls fail; null = every one. */
  Times: number | null
  /**
   * Only calls sent with `X-Fault-Scope: <Scope>` fail; null = every matching call. Tests that
   * run side by side each use their own, so one never uses up another's fault.
   */
  Scope: string | null
}

export interface Fault extends FaultInput {
  Id: number
  /** Calls still to fail (null = unlimited). */
  Restantes: number | null
  /** Calls it has already applied to. */
  Aplicados: number
  Origen: 'entorno' | 'api'
  Creado: string
}

export const MAX_DELAY_MS = 60_000
/** The request header a scoped fault matches on. */
export const FAULT_SCOPE_HEADER = 'x-fault-scope'
const SCOPE = /^[A-Za-z0-9_-]{1,64}$/
const CONTROL_PREFIX = '/api/__test/'

/** A path as matched: no query, no trailing slash, lower case. */
export function faultPath(url: string): string {
  return (url.split('?', 1)[0] ?? '').replace(/\/+$/, '').toLowerCase()
}

function checkInput(input: FaultInput): FaultInput {
  const Method = input.Method.trim().toUpperCase()
  if (!/^[A-Z]{3,7}$/.test(Method)) throw new Error(`Método no válido: «${input.Method}».`)
  const Path = input.Path.trim().split('?', 1)[0]!.replace(/\/+$/, '')
  if (!Path.startsWith('/api/')) throw new Error(`La ruta debe empezar por /api/: «${input.Path}».`)
  if (`${Path.toLowerCase()}/`.startsWith(CONTROL_PREFIX)) throw new Error('Las rutas /api/__test/ no admiten fallos.')
  if (!Number.isInteger(input.Status) || (input.Status !== 0 && (input.Status < 200 || input.Status > 599))) {
    throw new Error(`Status debe ser 0 (solo retardo) o un código HTTP entre 200 y 599 (es ${input.Status}).`)
  }
  if (!Number.isInteger(input.DelayMs) || input.DelayMs < 0 || input.DelayMs > MAX_DELAY_MS) {
    throw new Error(`DelayMs debe ser un entero entre 0 y ${MAX_DELAY_MS}.`)
  }
  const busy = input.BusyMs ?? 0
  if (!Number.isInteger(busy) || busy < 0 || busy > MAX_DELAY_MS) throw new Error(`BusyMs debe ser un entero entre 0 y ${MAX_DELAY_MS}.`)
  if (input.Status === 0 && input.DelayMs === 0 && busy === 0) throw new Error('Un fallo necesita un Status, un DelayMs o un BusyMs.')
  if (input.Times !== null && (!Number.isInteger(input.Times) || input.Times < 1)) throw new Error('Times debe ser un entero positivo (o no indicarse: sin límite).')
  if (input.Scope !== null && !SCOPE.test(input.Scope)) throw new Error('Scope debe tener de 1 a 64 letras, cifras, «-» o «_» (o no indicarse: todas las llamadas).')
  return { Method, Path, Status: input.Status, DelayMs: input.DelayMs, ...(busy > 0 ? { BusyMs: busy } : {}), Times: input.Times, Scope: input.Scope }
}

/**
 * `METHOD /path=STATUS[:DELAYMS[:BUSYMS]]` entries separated by `;` (or new lines):
 * `GET /api/contract/id=500;POST /api/contract/insert=503:2000;GET /api/client=0:1500;GET /api/facturas=0:0:3000`.
 * Throws on a malformed entry (the service refuses to start with a wrong test setup).
 */
export function parseFaultSpec(spec: string): FaultInput[] {
  const out: FaultInput[] = []
  for (const raw of spec.split(/[;\n]/)) {
    const entry = raw.trim()
    if (!entry) continue
    const m = /^([A-Za-z]+)\s+(\S+?)\s*=\s*(\d{1,3})(?::(\d+)(?::(\d+))?)?$/.exec(entry)
    if (!m) throw new Error(`REFERENCE_API_FAULTS no válido: «${entry}» (formato: MÉTODO /ruta=STATUS[:RETARDO_MS[:OCUPADO_MS]]).`)
    try {
      out.push(checkInput({ Method: m[1]!, Path: m[2]!, Status: Number(m[3]), DelayMs: m[4] === undefined ? 0 : Number(m[4]), BusyMs: m[5] === undefined ? 0 : Number(m[5]), Times: null, Scope: null }))
    } catch (err) {
      throw new Error(`REFERENCE_API_FAULTS no válido: «${entry}»: ${(err as Error).message}`)
    }
  }
  return out
}

/** The faults of one running API (in memory; a restart keeps only those of the environment). */
export class FaultRegistry {
  private faults: Fault[] = []
  private nextId = 1

  constructor(
    initial: readonly FaultInput[] = [],
    private readonly now: () => number = Date.now,
  ) {
    for (const f of initial) this.add(f, 'entorno')
  }

  /** Adds a fault, replacing any other for the same method, path and scope. */
  add(input: FaultInput, origen: Fault['Origen'] = 'api'): Fault {
    const f = checkInput(input)
    this.faults = this.faults.filter((x) => !(x.Method === f.Method && faultPath(x.Path) === faultPath(f.Path) && x.Scope === f.Scope))
    const fault: Fault = { Id: this.nextId++, ...f, Restantes: f.Times, Aplicados: 0, Origen: origen, Creado: new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z') }
    this.faults.push(fault)
    return { ...fault }
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }))
  }

  /** Removes one fault; false when it is not there (used up, replaced or never added). */
  remove(id: number): boolean {
    const n = this.faults.length
    this.faults = this.faults.filter((f) => f.Id !== id)
    return this.faults.length < n
  }

  clear(): number {
    const n = this.faults.length
    this.faults = []
    return n
  }

  /**
   * The fault for a call, counting it (a fault whose Times are used up goes away); null when
   * none. A fault of the call's own scope comes before an unscoped one.
   */
  take(method: string, url: string, scope: string | null = null): Fault | null {
    const path = faultPath(url)
    if (`${path}/`.startsWith(CONTROL_PREFIX)) return null
    const m = method.toUpperCase()
    const matches = (f: Fault, s: string | null) => f.Scope === s && f.Method === m && faultPath(f.Path) === path
    const fault = (scope !== null ? this.faults.find((f) => matches(f, scope)) : undefined) ?? this.faults.find((f) => matches(f, null))
    if (!fault) return null
    fault.Aplicados++
    if (fault.Restantes !== null) {
      fault.Restantes--
      if (fault.Restantes <= 0) this.faults = this.faults.filter((f) => f !== fault)
    }
    return { ...fault }
  }
}

/** Computes for `ms` without yielding: the thread's event loop answers nothing meanwhile. */
function holdCpu(ms: number): void {
  const end = performance.now() + ms
  let spins = 0
  while (performance.now() < end) spins++
  return void spins
}

function intField(body: Record<string, unknown>, name: string, fallback: number | null): number | null {
  const v = body[name]
  if (v === undefined || v === null || v === '') return fallback
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN
  if (!Number.isInteger(n)) fail(400, `${name} debe ser un número entero.`)
  return n
}

function scopeField(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null
  if (typeof v !== 'string') fail(400, 'Scope debe ser un texto.')
  return v
}

/**
 * Installs the fault hook (after authentication: it runs once the access hook has checked the
 * brand and, except on the public auth calls, the bearer token) and the control routes.
 * Call on the root instance, after installAccessHooks.
 */
export function installFaults(app: FastifyInstance, registry: FaultRegistry): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return
    const scope = request.headers[FAULT_SCOPE_HEADER]
    const fault = registry.take(request.method, request.url, typeof scope === 'string' ? scope : null)
    if (!fault) return
    request.log.info({ fault: { id: fault.Id, status: fault.Status, delayMs: fault.DelayMs, busyMs: fault.BusyMs ?? 0 } }, 'fallo provocado')
    if (fault.DelayMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.DelayMs))
    if (fault.BusyMs) holdCpu(fault.BusyMs)
    if (fault.Status === 0) return
    return reply.code(fault.Status).header('x-reference-api-fault', String(fault.Id)).send()
  })

  // The control calls, with an empty JSON body accepted (DELETE from clients that always send one).
  void app.register(async (control) => {
    tolerantJsonBodies(control)
    control.get('/api/__test/faults', async () => registry.list())
    control.post('/api/__test/faults', async (request: FastifyRequest, reply) => {
      const raw = request.body
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fail(400, 'El cuerpo de la petición debe ser un objeto JSON: { Method, Path, Status, DelayMs?, BusyMs?, Times?, Scope? }.')
      // PascalCase fields; camelCase spellings accepted too.
      const fields = Object.fromEntries(Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k.charAt(0).toUpperCase() + k.slice(1), v]))
      const method = fields.Method
      const path = fields.Path
      if (typeof method !== 'string' || !method.trim()) fail(400, 'Falta Method (GET, POST, PUT, DELETE…).')
      if (typeof path !== 'string' || !path.trim()) fail(400, 'Falta Path (por ejemplo /api/contract/id).')
      const input: FaultInput = {
        Method: method,
        Path: path,
        Status: intField(fields, 'Status', 0)!,
        DelayMs: intField(fields, 'DelayMs', 0)!,
        BusyMs: intField(fields, 'BusyMs', 0)!,
        Times: intField(fields, 'Times', null),
        Scope: scopeField(fields.Scope),
      }
      let fault: Fault
      try {
        fault = registry.add(input)
      } catch (err) {
        fail(400, (err as Error).message)
      }
      return reply.code(201).send(fault)
    })
    control.delete('/api/__test/faults', async (_request, reply) => {
      registry.clear()
      return reply.code(204).send()
    })
    // One fault only: tests running side by side remove their own and leave the others'.
    control.delete('/api/__test/faults/:id', async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
      const id = /^\d{1,9}$/.test(request.params.id) ? Number(request.params.id) : NaN
      if (!Number.isInteger(id)) fail(400, 'El identificador del fallo debe ser un número entero.')
      if (!registry.remove(id)) fail(404, `No hay ningún fallo con Id ${id}.`)
      return reply.code(204).send()
    })
  })
}
