import fs from 'node:fs'
import { CatalogueFile, type Endpoint } from '../../schemas/catalogue/endpoint'
import { SHIPPED_CATALOGUE } from '../../schemas/catalogue/index'
import { CallIndex } from '../../schemas/catalogue/match'
import { EXPORT_COLUMN_PARAMS, PAGING_PARAMS } from '../../schemas/catalogue/paging'
import { isApiScope } from '../../schemas/business/api-scopes'
import { isShapeName } from '../../schemas/business/shapes'
import { validatorFor } from '../lib/validate'

const checkFile = validatorFor<CatalogueFile>(CatalogueFile)

export class CatalogueError extends Error {}

/** Checks one catalogue file's content. */
function checkedCalls(raw: unknown, name: string): Endpoint[] {
  try {
    return checkFile(raw, `Catálogo ${name}`).calls
  } catch (err) {
    throw new CatalogueError((err as Error).message)
  }
}

/** Reads and checks an operator's catalogue file. */
export function readCatalogueFile(file: string): Endpoint[] {
  let raw: unknown
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    throw new CatalogueError(`Catálogo ${file}: no se puede leer como JSON (${(err as Error).message}).`)
  }
  return checkedCalls(raw, file)
}

/**
 * The catalogue the BFF serves: the shipped files plus an operator's own (CATALOGUE_FILES),
 * checked as a whole. A call of an operator's file with the method and path of a shipped one
 * replaces it (an upstream that answers differently); a repeated id or call within one source
 * is an error that stops the start.
 */
export function loadCatalogue(opts: { extraFiles?: readonly string[] } = {}): CallIndex {
  const shipped = Object.entries(SHIPPED_CATALOGUE).flatMap(([name, raw]) => checkedCalls(raw, name))
  const extra = (opts.extraFiles ?? []).flatMap((f) => readCatalogueFile(f))
  const key = (c: Endpoint) => `${c.method} ${c.path}`
  const replaced = new Set(extra.map(key))
  const calls = [...shipped.filter((c) => !replaced.has(key(c))), ...extra]
  const ids = new Map<string, Endpoint>()
  for (const call of calls) {
    const other = ids.get(call.id)
    if (other) throw new CatalogueError(`Catálogo: el id «${call.id}» se repite (${other.method} ${other.path} y ${call.method} ${call.path}).`)
    ids.set(call.id, call)
    checkCoherence(call)
  }
  for (const call of calls) {
    checkRecordRead(call, ids)
    checkExportPages(call, ids)
  }
  try {
    return new CallIndex(calls)
  } catch (err) {
    throw new CatalogueError((err as Error).message)
  }
}

/** What the schema alone cannot say: declared names refer to declared things. */
function checkCoherence(call: Endpoint): void {
  const where = `Catálogo, ${call.method} ${call.path}`
  const inPath = [...call.path.matchAll(/\{([A-Za-z0-9]+)\}/g)].map((m) => m[1]!)
  const declared = Object.keys(call.pathParams ?? {})
  for (const name of inPath) if (!declared.includes(name)) throw new CatalogueError(`${where}: falta declarar el parámetro de ruta «${name}».`)
  for (const name of declared) if (!inPath.includes(name)) throw new CatalogueError(`${where}: el parámetro de ruta «${name}» no está en la ruta.`)
  if (call.record) {
    const { param } = call.record
    const known = param in (call.pathParams ?? {}) || param in (call.query ?? {}) || (call.body?.kind === 'json' && param in (call.body.fields ?? {}))
    if (!known) throw new CatalogueError(`${where}: el registro se identifica por «${param}», que no es un parámetro de la llamada.`)
  }
  // A total is of a column the list has: one it sorts or filters by.
  for (const field of call.list?.summable ?? []) {
    if (!call.list!.sortable.includes(field) && !call.list!.filterable.includes(field)) throw new CatalogueError(`${where}: la columna sumable «${field}» no es una columna de la lista.`)
  }
  if (call.list && call.query) {
    for (const name of PAGING_PARAMS) if (name in call.query) throw new CatalogueError(`${where}: «${name}» es de la paginación y no se declara.`)
    if (call.list.pages) for (const name of EXPORT_COLUMN_PARAMS) if (name in call.query) throw new CatalogueError(`${where}: «${name}» es de la exportación por páginas y no se declara.`)
  }
  if (call.method === 'GET' && call.body) throw new CatalogueError(`${where}: una llamada GET no lleva cuerpo.`)
  if (call.scope !== undefined) {
    if (call.access !== 'apiKey') throw new CatalogueError(`${where}: solo una llamada de la API pública (access apiKey) necesita un ámbito («scope»).`)
    if (!isApiScope(call.scope)) throw new CatalogueError(`${where}: el ámbito «${call.scope}» no está declarado (schemas/business/api-scopes.ts).`)
  }
  if (call.shape !== undefined) {
    if (!isShapeName(call.shape)) throw new CatalogueError(`${where}: la forma de la respuesta «${call.shape}» no está registrada (schemas/business/shapes.ts).`)
    if ((call.answer ?? 'json') !== 'json') throw new CatalogueError(`${where}: solo una respuesta JSON tiene forma.`)
  }
}

/**
 * A mutation's `record.read` names a GET read of the same entity, whose own record parameter
 * takes the key (the BFF reads the record with it before and after the mutation).
 */
function checkRecordRead(call: Endpoint, ids: ReadonlyMap<string, Endpoint>): void {
  const name = call.record?.read
  if (name === undefined) return
  const where = `Catálogo, ${call.method} ${call.path}`
  const read = ids.get(name)
  if (call.effect !== 'mutation') throw new CatalogueError(`${where}: solo una llamada que cambia datos declara la lectura de su registro («read»).`)
  if (!read) throw new CatalogueError(`${where}: la lectura del registro «${name}» no está en el catálogo.`)
  if (read.effect !== 'read' || read.method !== 'GET') throw new CatalogueError(`${where}: la lectura del registro «${name}» debe ser una llamada GET de lectura.`)
  if (read.record?.entity !== call.record!.entity) throw new CatalogueError(`${where}: «${name}» no lee un registro «${call.record!.entity}».`)
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a)
  const right = new Set(b)
  return left.size === right.size && [...left].every((x) => right.has(x))
}

/**
 * An export built from a list's pages (`list.pages`) mirrors that list: a paged GET read of the
 * same path parameters and permission, sorting and filtering by the same columns, taking every
 * parameter the export takes (the BFF reads the pages with the export's own sort and filters).
 */
function checkExportPages(call: Endpoint, ids: ReadonlyMap<string, Endpoint>): void {
  const name = call.list?.pages
  if (name === undefined) return
  const where = `Catálogo, ${call.method} ${call.path}`
  const list = ids.get(name)
  if (call.list!.mode !== 'export' || (call.answer ?? 'json') !== 'file') throw new CatalogueError(`${where}: solo una exportación (list.mode export, answer file) se construye desde las páginas de un listado («pages»).`)
  if (!list) throw new CatalogueError(`${where}: el listado «${name}» no está en el catálogo.`)
  if (list.method !== 'GET' || list.effect !== 'read' || list.list?.mode !== 'paged' || (list.answer ?? 'json') !== 'json') throw new CatalogueError(`${where}: «${name}» debe ser un listado paginado (GET, list.mode paged, respuesta JSON).`)
  if (!sameSet(call.list!.sortable, list.list.sortable) || !sameSet(call.list!.filterable, list.list.filterable)) throw new CatalogueError(`${where}: ordena y filtra por columnas distintas de las de «${name}».`)
  if (!sameSet(Object.keys(call.pathParams ?? {}), Object.keys(list.pathParams ?? {}))) throw new CatalogueError(`${where}: sus parámetros de ruta no son los de «${name}».`)
  for (const param of Object.keys(call.query ?? {})) if (!(param in (list.query ?? {}))) throw new CatalogueError(`${where}: «${name}» no admite el parámetro «${param}».`)
  if (call.permission !== list.permission) throw new CatalogueError(`${where}: pide un permiso distinto del de «${name}».`)
}
