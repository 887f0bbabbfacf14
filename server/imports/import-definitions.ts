import fs from 'node:fs'
import path from 'node:path'
import type { BodyField, Endpoint, Param } from '../../schemas/catalogue/endpoint'
import type { CallIndex } from '../../schemas/catalogue/match'
import { ImportDefinition, type ImportColumn } from '../../schemas/import'
import type { LocalizedText } from '../../schemas/i18n'
import type { Field, FormNode, ScreenFile } from '../../schemas/screen'
import { nodesOf } from '../../schemas/screen-walk'
import { validatorFor } from '../lib/validate'

export const SHIPPED_IMPORTS_DIR = path.join(import.meta.dirname, 'definitions')

/** How a column's text becomes a value. */
export type ColumnKind = 'text' | 'integer' | 'number' | 'boolean'

/** A column of an import: a scalar body field of its call, with the form field that shows it, if any. */
export interface ImportColumnSpec {
  name: string
  label: LocalizedText
  kind: ColumnKind
  /** Required whenever it applies (a field the form may hide is required only when shown). */
  required: boolean
  field?: Field
  /** The catalogue's declaration of a top-level body field. */
  param?: Param
  /** The identifier check of the field's validator call (nif, iban, cups), run locally. */
  check?: 'nif' | 'iban' | 'cups'
  /** A validator call the portal does not run itself: asked of the upstream, once per value. */
  validatorCall?: Endpoint
  /** Literal default of the form (a blank cell takes it, as the form pre-fills it). */
  defaultValue?: string | number | boolean
  example: string
}

export interface ResolvedImport {
  def: ImportDefinition
  call: Endpoint
  columns: ImportColumnSpec[]
  byName: Map<string, ImportColumnSpec>
  /** The form's fields (for the body's shape). */
  fields: Field[]
  /** Calls of the undo, resolved. */
  undoCall?: Endpoint
  readCall: Endpoint
  /** The permission the target call needs (its own). */
  permission?: string
}

const labelText = (label: Field['label']): LocalizedText => (typeof label === 'string' ? { es: label, en: label } : { es: label.es, en: label.en ?? label.es })

/** The catalogue's Spanish label («el código de contrato») as a column header. */
const fromCatalogueLabel = (name: string, label: string | undefined): LocalizedText => {
  const text = label ? label.replace(/^(el|la|los|las)\s+/i, '') : name
  const capital = text.charAt(0).toUpperCase() + text.slice(1)
  return { es: capital, en: name }
}

function formOf(screen: ScreenFile, id: string): FormNode | undefined {
  for (const node of nodesOf(screen.root)) if (node.type === 'form' && node.id === id) return node as FormNode
  return undefined
}

function kindOf(field: Field | undefined, param: BodyField | undefined, example: unknown): ColumnKind {
  if (param && (param.type === 'integer' || param.type === 'number' || param.type === 'boolean')) return param.type
  if (field?.input === 'number') return 'number'
  if (field?.input === 'checkbox') return 'boolean'
  if (field && Array.isArray(field.options) && field.options.length > 0) {
    const v = field.options[0]!.value
    return typeof v === 'number' ? 'integer' : typeof v === 'boolean' ? 'boolean' : 'text'
  }
  if (typeof example === 'number') return Number.isInteger(example) ? 'integer' : 'number'
  return 'text'
}

/** The catalogued call a path of a screen names (`api/validators/nif`). */
const callOfPath = (catalogue: CallIndex, method: string, endpoint: string) => catalogue.find(method, endpoint)?.call

/**
 * One definition checked against the catalogue and the screens: its call exists and takes a
 * JSON object, every column is a scalar body field (objects spelt out by the form's dotted
 * fields), the example names only columns, the undo's calls exist. A mistake stops the start.
 */
export function resolveImport(def: ImportDefinition, catalogue: CallIndex, screens: ReadonlyMap<string, ScreenFile>): ResolvedImport {
  const where = `importación «${def.id}»`
  const call = catalogue.calls.find((c) => c.id === def.call)
  if (!call) throw new Error(`${where}: la llamada ${def.call} no está en el catálogo.`)
  if (call.effect !== 'mutation' || call.body?.kind !== 'json' || call.body.shape !== 'object' || !call.body.fields) throw new Error(`${where}: ${def.call} no es una llamada que cambie datos con un cuerpo JSON de campos.`)
  let fields: Field[] = []
  if (def.form) {
    const screen = screens.get(def.form.screen)
    const form = screen && formOf(screen, def.form.id)
    if (!form) throw new Error(`${where}: no existe el formulario ${def.form.id} en la pantalla ${def.form.screen}.`)
    fields = form.fields.filter((f) => !f.exclude)
  }
  const fieldByName = new Map(fields.map((f) => [f.name, f]))
  const columns: ImportColumnSpec[] = []
  const add = (name: string, field: Field | undefined, param: BodyField | undefined) => {
    const example = def.example[name]
    const validator = field?.validator ? callOfPath(catalogue, 'GET', field.validator.endpoint) : undefined
    const literalDefault = field?.defaultValue !== undefined && !(typeof field.defaultValue === 'string' && field.defaultValue.includes('{')) ? (field.defaultValue as string | number | boolean) : undefined
    columns.push({
      name,
      label: def.labels?.[name] ?? (field ? labelText(field.label) : fromCatalogueLabel(name, param?.label)),
      kind: kindOf(field, param, example),
      required: Boolean((field?.required && !field.visibleWhen) || (param?.required && !field)),
      field,
      param: param && param.type !== 'object' && param.type !== 'array' && param.type !== 'any' ? (param as Param) : undefined,
      check: validator?.check,
      validatorCall: validator && !validator.check ? validator : undefined,
      defaultValue: literalDefault,
      example: example === undefined ? '' : String(example),
    })
  }
  for (const [name, spec] of Object.entries(call.body.fields)) {
    if (spec.type === 'object') {
      const nested = fields.filter((f) => f.name.startsWith(`${name}.`))
      if (nested.length === 0 && spec.required) throw new Error(`${where}: el campo ${name} de ${def.call} es un objeto y el formulario no dice sus campos.`)
      for (const f of nested) add(f.name, f, undefined)
      continue
    }
    if (spec.type === 'array' || spec.type === 'any') {
      if (spec.required) throw new Error(`${where}: el campo ${name} de ${def.call} no cabe en una columna.`)
      continue
    }
    add(name, fieldByName.get(name), spec)
  }
  const byName = new Map(columns.map((c) => [c.name, c]))
  for (const name of Object.keys(def.example)) if (!byName.has(name)) throw new Error(`${where}: el ejemplo nombra la columna ${name}, que no existe.`)
  if (def.unique && !byName.has(def.unique)) throw new Error(`${where}: la columna única ${def.unique} no existe.`)
  const byId = (id: string) => {
    const found = catalogue.calls.find((c) => c.id === id)
    if (!found) throw new Error(`${where}: la llamada ${id} no está en el catálogo.`)
    return found
  }
  const readCall = byId(def.undo.read)
  const undoCall = def.undo.kind === 'delete' ? byId(def.undo.call) : undefined
  if (def.undo.kind === 'restore' && (!byName.has(def.undo.key) || !byName.has(def.undo.field))) throw new Error(`${where}: la clave o el campo del deshacer no son columnas.`)
  return { def, call, columns, byName, fields, undoCall, readCall, permission: call.permission }
}

const checkDefinition = validatorFor<ImportDefinition>(ImportDefinition)

/** The shipped definitions (and a test's folder), checked. */
export function loadImports(dir: string, catalogue: CallIndex, screens: ReadonlyMap<string, ScreenFile>): Map<string, ResolvedImport> {
  const out = new Map<string, ResolvedImport>()
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const raw = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as unknown
    const def = checkDefinition(raw, `server/imports/definitions/${file}`)
    if (out.has(def.id)) throw new Error(`importación «${def.id}» repetida (${file}).`)
    out.set(def.id, resolveImport(def, catalogue, screens))
  }
  return out
}

/** The columns as the client shows them. */
export function columnViews(resolved: ResolvedImport): ImportColumn[] {
  return resolved.columns.map((c) => ({ name: c.name, label: c.label, required: c.required, example: c.example }))
}
