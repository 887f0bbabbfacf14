import type { SearchGroup, SearchKind } from '../../schemas/search'
import type { QueryShape } from './query-shape'

/** Records shown per group. */
export const RECORD_LIMIT = 5

/** One result before its route is checked: the route template it opens and what fills it. */
export interface RecordHit {
  kind: SearchKind
  group: SearchGroup
  label: string
  detail?: string
  /** A route path as the screens declare it (`/usuarios/{id}`). */
  route: string
  params?: Record<string, string>
  query?: Record<string, string>
}

/**
 * One catalogued business call the palette asks: when the query's shape can match, with which
 * parameters, and how its answer becomes results. Made with the user's own token, so the
 * upstream applies its own visibility (an agent sees its hierarchy's contracts).
 */
export interface RecordLookup {
  /** The catalogue's call id: its path, parameters and permission come from there. */
  call: string
  /** The route templates its results open: not asked when the user may open none of them. */
  opens: string[]
  /** The groups its answer feeds: a failure is reported for these. */
  groups: SearchGroup[]
  /** The query parameters to send, or null when the query cannot match. */
  params(shape: QueryShape): Record<string, string> | null
  hits(answer: unknown, shape: QueryShape): RecordHit[]
  /** Upstream statuses that mean «nothing found», not a failure (a lookup by key answers 404). */
  emptyStatuses?: number[]
}

interface Page<T> {
  Items?: T[]
}

interface ContractRow {
  CodigoContrato?: string
  Cups?: string
  EstadoNombre?: string
  Tarifa?: string
}

/** A paged list filtered by one column, the first page of a few rows. */
function filtered(column: string, value: string, sortColumn: string): Record<string, string> {
  return { pageIndex: '0', pageSize: String(RECORD_LIMIT), sortColumn, sortOrder: 'asc', 'filterColumns[0]': column, 'filterQueries[0]': value }
}

const items = <T>(answer: unknown): T[] => (Array.isArray((answer as Page<T>)?.Items) ? (answer as Page<T>).Items!.slice(0, RECORD_LIMIT) : [])

const join = (...parts: (string | null | undefined)[]) => parts.filter((p) => p && p.trim()).join(' · ') || undefined

function contractHit(row: ContractRow): RecordHit | null {
  if (!row.CodigoContrato) return null
  return { kind: 'contract', group: 'contracts', label: row.CodigoContrato, detail: join(row.EstadoNombre, row.Tarifa), route: '/soluciones/contratos/{referencia}', params: { referencia: row.CodigoContrato } }
}

export const RECORD_LOOKUPS: readonly RecordLookup[] = [
  {
    // Contract codes are stored upper case and indexed: the typed start of a code finds its contracts.
    call: 'contract.list',
    opens: ['/soluciones/contratos/{referencia}'],
    groups: ['contracts'],
    params: (s) => (s.contractCode ? filtered('CodigoContrato', s.contractCode, 'CodigoContrato') : null),
    hits: (answer) => items<ContractRow>(answer).map(contractHit).filter((h): h is RecordHit => h !== null),
  },
  {
    // A whole CUPS: its supply point and the contracts on it that the user sees.
    call: 'contract.list',
    opens: ['/utilidades/sips', '/soluciones/contratos/{referencia}'],
    groups: ['supplyPoints', 'contracts'],
    params: (s) => (s.cups ? filtered('Cups', s.compact, 'CodigoContrato') : null),
    hits: (answer, s) => {
      const rows = items<ContractRow>(answer)
      if (rows.length === 0) return []
      const point: RecordHit = { kind: 'supplyPoint', group: 'supplyPoints', label: s.compact, detail: join(rows[0]!.Tarifa), route: '/utilidades/sips', query: { cups: s.compact } }
      return [point, ...rows.map(contractHit).filter((h): h is RecordHit => h !== null)]
    },
  },
  {
    // A client by its NIF/NIE/CIF: shown by name with the NIF as typed; opens its contracts.
    call: 'client.byIdentifier',
    opens: ['/soluciones/contratos/listado'],
    groups: ['clients'],
    params: (s) => (s.nif ? { identificador: s.compact } : null),
    emptyStatuses: [400, 404],
    hits: (answer, s) => {
      const client = answer as { NombreCompleto?: string } | null
      if (!client || typeof client !== 'object') return []
      return [{ kind: 'client', group: 'clients', label: client.NombreCompleto || s.compact, detail: s.compact, route: '/soluciones/contratos/listado', query: { 'f.Nif': s.compact } }]
    },
  },
  {
    call: 'user.list',
    opens: ['/usuarios/{id}'],
    groups: ['users'],
    params: (s) => (s.name ? filtered('NombreCompleto', s.text, 'NombreCompleto') : null),
    hits: (answer) =>
      items<{ Id?: number; NombreCompleto?: string; Activo?: boolean; AgenteNombre?: string | null }>(answer)
        .filter((u) => typeof u.Id === 'number' && u.NombreCompleto)
        .map((u) => ({ kind: 'user', group: 'users', label: u.NombreCompleto!, detail: join(u.AgenteNombre), route: '/usuarios/{id}', params: { id: String(u.Id) } })),
  },
  {
    call: 'agent.list',
    opens: ['/agentes/listado'],
    groups: ['agents'],
    params: (s) => (s.name ? filtered(/\d/.test(s.text) ? 'Codigo' : 'Nombre', s.text, 'Nombre') : null),
    hits: (answer) =>
      items<{ Codigo?: string; Nombre?: string; Nivel?: string | number | null; Provincia?: string | null }>(answer)
        .filter((a) => a.Codigo && a.Nombre)
        .map((a) => ({ kind: 'agent', group: 'agents', label: `${a.Codigo} — ${a.Nombre}`, detail: join(a.Provincia), route: '/agentes/listado', query: { 'f.Codigo': a.Codigo! } })),
  },
]
