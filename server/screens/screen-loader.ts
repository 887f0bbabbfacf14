import fs from 'node:fs'
import path from 'node:path'
import Type from 'typebox'
import { Compile } from 'typebox/compile'
import type { CallIndex } from '../../schemas/catalogue/match'
import { ScreenRoute } from '../../schemas/manifest'
import { PUBLIC_PAGES } from '../../schemas/public-pages'
import { SCREEN_SCHEMA_VERSION, Screen, ScreenTarget, type ScreenFile } from '../../schemas/screen'
import { describeErrors, firstErrors } from '../../schemas/screen-errors'
import { DATA_KEYS, KEEP, isScreenNode, rewriteValues, visitNodes, visitValues } from '../../schemas/screen-walk'
import { screenCallProblem } from './screen-calls'

export class ScreenLoadError extends Error {}

const check = Compile(Screen)

/** Upgrades a screen file from version N to N+1. Keyed by the version it upgrades from. */
export type ScreenMigration = (screen: Record<string, unknown>) => Record<string, unknown>

/** An object with its key `from` renamed `to`, in the same place among its keys; as it is when it has no `from` or has a `to`. */
function renameKey(value: unknown, from: string, to: string): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value) || !(from in value) || to in value) return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k === from ? to : k, v]))
}

/**
 * v1 → v2: a form's fields and a column's filter name their kind with `input`, so `type` names
 * nodes alone. Written for files not validated yet: whatever is not where a field or a filter
 * goes is left as it is, for the schema to judge.
 */
export function fieldsAndFiltersSayInput(screen: Record<string, unknown>): Record<string, unknown> {
  return rewriteValues(screen, (value, at) => {
    if (typeof at.key === 'string' && DATA_KEYS.has(at.key)) return KEEP
    if (at.key === 'filter' && !Array.isArray(at.parent)) return renameKey(value, 'type', 'input')
    if (isScreenNode(value) && value.type === 'form' && Array.isArray((value as { fields?: unknown }).fields)) {
      return { ...value, fields: (value as { fields: unknown[] }).fields.map((f) => renameKey(f, 'type', 'input')) }
    }
    return undefined
  })
}

/**
 * The schema changes the loader knows how to apply, so stored screens written for an older
 * format keep working, upgraded on read.
 */
export const SCREEN_MIGRATIONS: Record<number, ScreenMigration> = {
  1: fieldsAndFiltersSayInput,
}

/** Brings a parsed screen file to the current format version, or refuses it with a clear message. */
export function upgradeScreen(raw: unknown, where: string, migrations: Record<number, ScreenMigration> = SCREEN_MIGRATIONS, current = SCREEN_SCHEMA_VERSION): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ScreenLoadError(`${where}: una pantalla debe ser un objeto JSON.`)
  let screen = raw as Record<string, unknown>
  const version = screen.schemaVersion
  if (typeof version !== 'number' || !Number.isInteger(version)) throw new ScreenLoadError(`${where}: falta schemaVersion (versión actual: ${current}).`)
  if (version > current) throw new ScreenLoadError(`${where}: schemaVersion ${version} es más nueva que la que entiende este servidor (${current}).`)
  for (let v = version; v < current; v++) {
    const migrate = migrations[v]
    if (!migrate) throw new ScreenLoadError(`${where}: no se puede actualizar desde schemaVersion ${v}; versión actual ${current}.`)
    screen = { ...migrate(screen), schemaVersion: v + 1 }
  }
  return screen
}

/** Validates one parsed screen (after upgrade) and returns it typed. */
export function validateScreen(raw: unknown, where: string, migrations: Record<number, ScreenMigration> = SCREEN_MIGRATIONS, current = SCREEN_SCHEMA_VERSION): ScreenFile {
  const upgraded = upgradeScreen(raw, where, migrations, current)
  if (!check.Check(upgraded)) throw new ScreenLoadError(`${where}: ${describeErrors(upgraded)}`)
  return upgraded as ScreenFile
}

/** Rules the schema cannot say: a table reads an endpoint or its detail's data; an option source an endpoint or a context list. */
function semanticProblem(screen: ScreenFile): string | null {
  let problem: string | null = null
  visitValues(
    screen.root,
    (value, at) => {
      const o = value as Record<string, unknown> | null
      if (o && typeof o === 'object' && typeof o.valueField === 'string' && typeof o.labelField === 'string' && !o.endpoint && !o.from) problem ??= `${at.path}: las opciones necesitan endpoint o from.`
    },
    '/root',
  )
  visitNodes(screen.root, (node) => {
    if (node.type === 'table' && !node.source.endpoint && !node.source.fromData) problem ??= `la tabla «${node.id}» necesita source.endpoint o source.fromData.`
    if (node.type === 'table' && node.source.fromData && node.export) problem ??= `la tabla «${node.id}» lee datos del detalle y no puede exportar.`
    if (node.type === 'detail' && !node.source.endpoint && !node.source.fromData) problem ??= 'un detalle necesita source.endpoint o source.fromData.'
    if (node.type === 'form' && node.steps) {
      const names = new Set(node.fields.map((f) => f.name))
      for (const step of node.steps) for (const f of step.fields) if (!names.has(f)) problem ??= `el paso «${step.key}» del formulario «${node.id}» nombra el campo desconocido «${f}».`
    }
  })
  return problem
}

const checkRoutes = Compile(Type.Array(ScreenRoute, { minItems: 1 }))
const checkTarget = Compile(ScreenTarget)
/** Fields whose value is a path a screen may write as a ScreenTarget instead. */
const TARGET_FIELDS = new Set(['to', 'navigate', 'link', 'rowLink'])

/**
 * Replaces every `{ "screen": … }` link of a parsed screen file by the path of the target's
 * first route (schemas/screen.ts, ScreenTarget): the file's root becomes the resolved copy. A
 * target naming an unknown screen, a screen without a route or the wrong parameters stops the start.
 */
export function resolveTargets(raw: Record<string, unknown>, routesOf: ReadonlyMap<string, string[]>, where: string): void {
  const resolve = (target: unknown, at: string): string => {
    if (!checkTarget.Check(target)) throw new ScreenLoadError(`${where}${at}: ${firstErrors(checkTarget, target, '')}`)
    const path = routesOf.get(target.screen)?.[0]
    if (!path) throw new ScreenLoadError(`${where}${at}: la pantalla «${target.screen}» no existe o no tiene ruta.`)
    const params = { ...target.params }
    const filled = path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
      const value = params[name]
      if (value === undefined) throw new ScreenLoadError(`${where}${at}: la ruta ${path} de «${target.screen}» necesita el parámetro «${name}».`)
      delete params[name]
      return String(value)
    })
    const extra = Object.keys(params)[0]
    if (extra) throw new ScreenLoadError(`${where}${at}: la ruta ${path} de «${target.screen}» no tiene el parámetro «${extra}».`)
    // Values are templates ({row.Id}) filled by the client, which encodes them: written as they are.
    const query = Object.entries(target.query ?? {}).map(([k, v]) => `${k}=${v}`)
    return query.length ? `${filled}?${query.join('&')}` : filled
  }
  raw.root = rewriteValues(
    raw.root,
    (value, at) => {
      if (typeof at.key !== 'string' || Array.isArray(at.parent)) return undefined
      if (DATA_KEYS.has(at.key)) return KEEP
      if (TARGET_FIELDS.has(at.key) && value && typeof value === 'object' && !Array.isArray(value) && 'screen' in value) return resolve(value, at.path)
      return undefined
    },
    '/root',
  )
}

export interface ScreenCheckContext {
  /** Each screen's route paths, for the links that name a screen. */
  routesOf: ReadonlyMap<string, string[]>
  /** The endpoint catalogue: every call must be in it. */
  catalogue?: CallIndex
  /** Where markdown nodes' files live. */
  docsDir: string
  migrations?: Record<number, ScreenMigration>
  schemaVersion?: number
}

/**
 * Every check a screen file passes before anyone sees it, shipped or made in the studio: the
 * format upgrade, links naming a screen turned into its path, the schema, markdown files
 * inlined, the rules the schema cannot say and, given the catalogue, catalogued calls only.
 * Works in place on `raw`; the first problem is a ScreenLoadError naming `where` and a JSON path.
 */
export function checkScreen(raw: Record<string, unknown>, where: string, ctx: ScreenCheckContext): ScreenFile {
  if (raw.routes !== undefined && !checkRoutes.Check(raw.routes)) throw new ScreenLoadError(`${where}: ${firstErrors(checkRoutes, raw.routes, '/routes')}`)
  resolveTargets(raw, ctx.routesOf, where)
  const screen = validateScreen(raw, where, ctx.migrations, ctx.schemaVersion)
  visitNodes(screen.root, (node) => {
    if (node.type === 'markdown') {
      if (!node.file && !node.content) throw new ScreenLoadError(`${where}: un nodo markdown necesita content o file.`)
      if (node.file) {
        const md = path.join(ctx.docsDir, node.file)
        if (!md.startsWith(ctx.docsDir) || !fs.existsSync(md)) throw new ScreenLoadError(`${where}: no existe el documento ${node.file}.`)
        // x.md is the Spanish text; x.en.md beside it, when there is one, its English.
        const es = fs.readFileSync(md, 'utf8')
        const en = md.replace(/\.md$/, '.en.md')
        node.content = fs.existsSync(en) ? { es, en: fs.readFileSync(en, 'utf8') } : es
        delete node.file
      }
    }
  })
  const problem = semanticProblem(screen) ?? (ctx.catalogue ? screenCallProblem(screen, ctx.catalogue) : null)
  if (problem) throw new ScreenLoadError(`${where}: ${problem}`)
  return screen
}

/**
 * Loads every `*.json` under the screens folder (docs/ holds markdown), validates it, inlines
 * markdown files, and checks ids are unique and match the file names and, given the endpoint
 * catalogue, that every call is catalogued. Links naming a screen are turned into its path
 * first, so every file is read before any is validated. Any problem stops the start with the
 * file's path and the error.
 */
export function loadScreens(dir: string, catalogue?: CallIndex): Map<string, ScreenFile> {
  const screens = new Map<string, ScreenFile>()
  const docsDir = path.join(dir, 'docs')
  const files: string[] = []
  const collect = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name)
      if (entry.isDirectory()) collect(full)
      else if (entry.name.endsWith('.json')) files.push(full)
    }
  }
  collect(dir)
  const parsed: { file: string; where: string; raw: Record<string, unknown> }[] = []
  // Each screen's route paths, and the public pages', for the links that name a screen.
  const routesOf = new Map<string, string[]>(PUBLIC_PAGES.map((p) => [p.screen, [p.path]]))
  for (const file of files.sort()) {
    const where = path.relative(process.cwd(), file)
    let raw: Record<string, unknown>
    try {
      raw = upgradeScreen(JSON.parse(fs.readFileSync(file, 'utf8')), where) as Record<string, unknown>
    } catch (err) {
      if (err instanceof ScreenLoadError) throw err
      throw new ScreenLoadError(`${where}: JSON no válido: ${(err as Error).message}`)
    }
    if (raw.routes !== undefined) {
      if (!checkRoutes.Check(raw.routes)) throw new ScreenLoadError(`${where}: ${firstErrors(checkRoutes, raw.routes, '/routes')}`)
      if (typeof raw.id === 'string') routesOf.set(raw.id, raw.routes.map((r) => r.path))
    }
    parsed.push({ file, where, raw })
  }
  for (const { file, where, raw } of parsed) {
    const screen = checkScreen(raw, where, { routesOf, catalogue, docsDir })
    if (screen.id !== path.basename(file, '.json')) throw new ScreenLoadError(`${where}: el id «${screen.id}» debe coincidir con el nombre del fichero.`)
    if (screens.has(screen.id)) throw new ScreenLoadError(`${where}: id de pantalla repetido «${screen.id}».`)
    screens.set(screen.id, screen)
  }
  return screens
}
