import type { LocalizedText } from '../../../schemas/i18n'
import { linkFor, routeOfLink, routeParams } from './route-link'
import { SCREEN_SCHEMA_VERSION, type Column, type ColumnFormat, type ScreenFile, type TableNode, type Text } from '../../../schemas/screen'

/**
 * The structured editor's model of a list screen's body: one catalogued call drawn as a table,
 * with its columns, filters and row link. It maps to the screen's root and back; the screen's
 * route and menu place are the route editor's, and a body it cannot describe (tabs, forms,
 * widgets…) is edited node by node in the structure editor or as JSON.
 */
export interface ListDesign {
  endpoint: string
  /** The call answers spec §7 pages (`Items`, `TotalCount`) rather than every row at once. */
  paged: boolean
  dataKey: string
  columns: ColumnDesign[]
  /** Where a row leads: a route path with row fields in its parameters (`{row.Id}` for a `{id}`). */
  rowLink: string | null
}

export interface ColumnDesign {
  field: string
  header: LocalizedText
  format: StudioFormat
  sortable: boolean
  filter: boolean
  /** Badge by value: each value's label and colour. */
  badges: { value: string; label: string; severity: BadgeSeverity }[]
}

/** The formats the structured editor offers (the schema has more; JSON reaches them all). */
export const STUDIO_FORMATS = ['text', 'date', 'money', 'energy', 'badge', 'integer', 'number', 'boolean', 'code'] as const satisfies readonly ColumnFormat[]
export type StudioFormat = (typeof STUDIO_FORMATS)[number]
export const BADGE_SEVERITIES = ['success', 'info', 'warning', 'danger', 'secondary'] as const
export type BadgeSeverity = (typeof BADGE_SEVERITIES)[number]

const TABLE_ID = 'lista'

const PAGE_KEYS = ['type', 'title', 'children']
const TABLE_KEYS = ['type', 'id', 'source', 'dataKey', 'columns', 'urlState', 'rowLink']
const SOURCE_KEYS = ['endpoint', 'paged']
const COLUMN_KEYS = ['field', 'header', 'format', 'sortable', 'filter', 'badges', 'align']
const FILTER_KEYS = ['input', 'options']

const onlyKeys = (value: object, allowed: readonly string[]) => Object.keys(value).every((k) => allowed.includes(k))

const textOf = (t: Text | undefined, fallback: string): LocalizedText => (t === undefined ? { es: fallback } : typeof t === 'string' ? { es: t } : { es: t.es, ...(t.en ? { en: t.en } : {}) })

/** A field name as a first header: `FechaAlta` → "Fecha alta", `kWhP1` stays. */
export function headerFromField(field: string): string {
  const words = field
    .replace(/([a-záéíóúñ])([A-ZÁÉÍÓÚÑ])/g, '$1 $2')
    .replace(/_/g, ' ')
    .trim()
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase()
}

/** What a sample value suggests a column shows. */
export function formatFromValue(field: string, value: unknown): StudioFormat {
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'number') return /importe|precio|total|coste|euros?$/i.test(field) ? 'money' : /kwh|consumo/i.test(field) ? 'energy' : Number.isInteger(value) ? 'integer' : 'number'
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) return 'date'
  return 'text'
}

/**
 * Columns proposed from a sample row of the call's real answer: scalar fields only (a list or an
 * object inside a row is not a column of its own), sortable and filterable as the catalogue says.
 */
export function proposeColumns(row: Record<string, unknown>, list: { sortable: string[]; filterable: string[] } | null): ColumnDesign[] {
  return Object.entries(row)
    .filter(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
    .map(([field, v]) => ({
      field,
      header: { es: headerFromField(field) },
      format: formatFromValue(field, v),
      sortable: list ? list.sortable.includes(field) : true,
      filter: list ? list.filterable.includes(field) : false,
      badges: [],
    }))
}

/** The key a row is known by: `Id`, `Codigo…`, else the first column. */
export function proposeDataKey(columns: readonly ColumnDesign[]): string {
  return (columns.find((c) => c.field === 'Id') ?? columns.find((c) => /^(Codigo|Id)/.test(c.field)) ?? columns[0])?.field ?? 'Id'
}


const column = (c: ColumnDesign): Column => {
  const out: Column = { field: c.field, header: c.header, format: c.format }
  if (c.sortable) out.sortable = true
  if (c.filter) out.filter = { input: c.format === 'badge' && c.badges.length > 0 ? 'select' : c.format === 'date' ? 'dateRange' : 'text', ...(c.format === 'badge' && c.badges.length > 0 ? { options: c.badges.map((b) => ({ value: b.value, label: b.label || b.value })) } : {}) }
  if (c.format === 'badge' && c.badges.length > 0) out.badges = Object.fromEntries(c.badges.map((b) => [b.value, { ...(b.label ? { label: b.label } : {}), severity: b.severity }]))
  if (c.format === 'money' || c.format === 'energy' || c.format === 'integer' || c.format === 'number') out.align = 'right'
  return out
}

/** What a new screen starts from: its identity, title, route and (optionally) menu place. */
export type ScreenFrame = Pick<ScreenFile, 'id' | 'title' | 'routes' | 'menu'>

/** The screen `frame` with `d` as its body: a page titled as the screen, holding the table. */
export function screenOfDesign(frame: ScreenFrame, d: ListDesign): ScreenFile {
  const table: TableNode = {
    type: 'table',
    id: TABLE_ID,
    source: { endpoint: d.endpoint, ...(d.paged ? {} : { paged: false }) },
    dataKey: d.dataKey,
    columns: d.columns.map(column),
    urlState: true,
    ...(d.rowLink ? { rowLink: d.rowLink } : {}),
  }
  return {
    schemaVersion: SCREEN_SCHEMA_VERSION,
    id: frame.id,
    title: frame.title,
    ...(frame.routes ? { routes: frame.routes } : {}),
    ...(frame.menu ? { menu: frame.menu } : {}),
    root: { type: 'page', title: frame.title, children: [table] },
  } as ScreenFile
}

/** `screen` with its body replaced by `d`, its page title kept. */
export function withDesign(screen: ScreenFile, d: ListDesign): ScreenFile {
  const next = screenOfDesign(screen, d)
  if (screen.root.type === 'page' && next.root.type === 'page') next.root = { ...next.root, title: screen.root.title }
  return next
}

/**
 * The design of a screen, when the structured editor can describe it: a page holding exactly one
 * table over a call, with the options this editor offers. Null otherwise (edit it as JSON).
 */
export function designOfScreen(screen: ScreenFile): ListDesign | null {
  // Whatever this model does not hold would be lost on the way back: such bodies are edited node by node.
  const root = screen.root
  if (root.type !== 'page' || root.children.length !== 1 || !onlyKeys(root, PAGE_KEYS)) return null
  const table = root.children[0]!
  if (table.type !== 'table' || !table.source.endpoint || !onlyKeys(table, TABLE_KEYS) || !onlyKeys(table.source, SOURCE_KEYS)) return null
  const columns: ColumnDesign[] = []
  for (const c of table.columns) {
    if (!onlyKeys(c, COLUMN_KEYS) || (c.filter && !onlyKeys(c.filter, FILTER_KEYS))) return null
    if (!(STUDIO_FORMATS as readonly string[]).includes(c.format ?? 'text')) return null
    columns.push({
      field: c.field,
      header: textOf(c.header, c.field),
      format: (c.format ?? 'text') as StudioFormat,
      sortable: !!c.sortable,
      filter: !!c.filter,
      badges: Object.entries(c.badges ?? {}).map(([value, b]) => ({ value, label: b.label === undefined ? '' : typeof b.label === 'string' ? b.label : b.label.es, severity: (BADGE_SEVERITIES as readonly string[]).includes(b.severity ?? '') ? (b.severity as BadgeSeverity) : 'info' })),
    })
  }
  // A link naming a screen (`{ screen, params }`) is a file's way of writing it; served screens hold the path.
  const rowLink = typeof table.rowLink === 'string' ? table.rowLink : null
  if (table.rowLink !== undefined && rowLink === null) return null
  return {
    endpoint: table.source.endpoint,
    paged: table.source.paged !== false,
    dataKey: table.dataKey,
    columns,
    rowLink,
  }
}

/** A row link for a route: each `{param}` of its path filled with a row field (`{row.Id}`). */
export function rowLinkFor(routePath: string, fields: Record<string, string>): string {
  return linkFor(routePath, Object.fromEntries(routeParams(routePath).map((name) => [name, `{row.${fields[name] ?? name}}`])))
}

/** The route a row link leads to, among `paths`, with the row field filling each parameter; null when none matches. */
export function routeOfRowLink(link: string, paths: readonly string[]): { path: string; fields: Record<string, string> } | null {
  for (const path of paths) {
    const found = routeOfLink(link, [path])
    // Only a link whose every parameter is a row field, without a query: the list's row link.
    const fields = found && !found.query ? Object.entries(found.values).map(([name, v]) => [name, /^\{row\.([A-Za-z0-9_.]+)\}$/.exec(v)?.[1]] as const) : null
    if (fields?.every(([, f]) => f)) return { path, fields: Object.fromEntries(fields) as Record<string, string> }
  }
  return null
}
