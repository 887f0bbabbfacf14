import { describe, expect, it } from 'vitest'
import fs from 'node:fs'
import path from 'node:path'

// Two rules of the house (ARCHITECTURE.md), checked on resolved paths: the reference API imports
// nothing of the BFF's (only `schemas/` and packages), and the BFF reaches the reference API only
// in server/main.ts, to start it. `npm run lint` (.oxlintrc.json) bans the same imports as
// written; this test also covers scripts/ and checks that main.ts does start it. Imports are
// read with a regex (TypeScript 7's package exposes no synchronous parser): static,
// side-effect, re-export, dynamic import() and require().

const ROOT = path.resolve(import.meta.dirname, '../..')
const REFERENCE_API = path.join(ROOT, 'server/reference-api')
const SCHEMAS = path.join(ROOT, 'schemas')
const MAY_START_IT = path.join(ROOT, 'server/main.ts')
const IMPORT = /\bfrom\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]/g

const inside = (file: string, dir: string) => file === dir || file.startsWith(dir + path.sep)
const rel = (file: string) => path.relative(ROOT, file)

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full)
    return /\.[cm]?[jt]sx?$/.test(entry.name) ? [full] : []
  })
}

/** Every import of the BFF's code (server/, scripts/) that leaves its folder, resolved to a path. */
const edges = ['server', 'scripts'].flatMap((top) =>
  sourceFiles(path.join(ROOT, top)).flatMap((from) =>
    [...fs.readFileSync(from, 'utf8').matchAll(IMPORT)]
      .map((m) => m[1] ?? m[2] ?? m[3] ?? '')
      // Packages (and node: builtins) are not folders of this repository.
      .filter((spec) => spec.startsWith('.') || spec.startsWith('/'))
      .map((spec) => ({ from, to: path.resolve(path.dirname(from), spec), spec })),
  ),
)
const show = ({ from, spec }: { from: string; spec: string }) => `${rel(from)} → '${spec}'`

describe('rules of the house: the reference API is a separate app', () => {
  it('the reference API imports only its own files, schemas/ and packages', () => {
    const leaving = edges.filter((e) => inside(e.from, REFERENCE_API) && !inside(e.to, REFERENCE_API) && !inside(e.to, SCHEMAS))
    expect(leaving.map(show)).toEqual([])
  })

  it('the BFF imports the reference API only in server/main.ts, to start it', () => {
    const reaching = edges.filter((e) => !inside(e.from, REFERENCE_API) && inside(e.to, REFERENCE_API))
    // The walker sees main.ts start it: a regex that matched nothing would pass everything.
    expect(reaching.some((e) => e.from === MAY_START_IT)).toBe(true)
    expect(reaching.filter((e) => e.from !== MAY_START_IT).map(show)).toEqual([])
  })
})

// A route is written in exactly one file: its screen's (public pages: schemas/public-pages.ts).
// Client code that leads to a screen names it and asks the manifest for its path
// (client/api/screen-path.ts), so moving a screen never leaves a dead link behind.
const CLIENT_CODE = ['client/widgets', 'client/renderer', 'client/layouts', 'client/ui', 'client/auth'].map((dir) => path.join(ROOT, dir))
const QUOTES = ['\'', '"', '`']
/** What may follow a route inside a literal: its end, a subpath, a query or a fragment, or `${…}`. */
const AFTER_ROUTE = new Set([...QUOTES, '/', '?', '#', '$'])

/** The literals of `text` that hold one of the `prefixes` (routes up to their first parameter). */
function routeLiterals(text: string, prefixes: string[]): string[] {
  const found: string[] = []
  for (const prefix of prefixes)
    for (const quote of QUOTES)
      for (let at = text.indexOf(quote + prefix); at !== -1; at = text.indexOf(quote + prefix, at + 1)) {
        if (AFTER_ROUTE.has(text[at + 1 + prefix.length] ?? '')) found.push(`${quote}${prefix}`)
      }
  return found
}

describe('rules of the house: a route is written in exactly one file', async () => {
  const { loadRoutes } = await import('../../server/manifest/manifest-data')
  // The static start of every route ('/usuarios/{id}' → '/usuarios'); the root '/' says nothing.
  const prefixes = [...new Set(loadRoutes().map((r) => r.path.split('{')[0]!.replace(/\/+$/, '')))].filter(Boolean)

  it('finds a route written in a literal (the check is not blind)', () => {
    expect(prefixes).toContain('/soluciones/contratos')
    expect(routeLiterals("navigate('/soluciones/contratos/listado?f=1')", prefixes)).not.toEqual([])
    expect(routeLiterals('<Link to={`/soluciones/renovaciones`}>', prefixes)).not.toEqual([])
    expect(routeLiterals("api.get('/api/contract/situacion-contratos')", prefixes)).toEqual([])
  })

  it('no widget, renderer, layout or page code writes an app route: it names the screen', () => {
    const written = CLIENT_CODE.flatMap((dir) =>
      sourceFiles(dir).flatMap((file) => routeLiterals(fs.readFileSync(file, 'utf8'), prefixes).map((literal) => `${rel(file)}: ${literal}`)),
    )
    expect(written).toEqual([])
  })
})
