// npm run lint, after oxlint: no import cycles in client/, server/ or schemas/, counting dynamic
// import() as well. oxlint's import/no-cycle follows static imports only, and the cycles this
// code base had ran through the lazily loaded pages and node views. Imports are read with
// regexes (TypeScript 7's package has no parser API); type-only imports are left out, as they
// are erased from the build.
//
//   node scripts/check-import-cycles.mjs [root]
import fs from 'node:fs'
import path from 'node:path'

const ROOT = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'))
const FOLDERS = ['client', 'server', 'schemas']
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/
const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx']

// `import x from`, `import { a, type B } from`, `export * from`, `export { a } from`; the clause holds
// names, braces, commas and `* as` only, so a statement never runs on into the next one.
const FROM = /^[ \t]*(import|export)[ \t]+(type[ \t]+)?[\w\s{},*$]*?\bfrom[ \t]*['"]([^'"]+)['"]/gm
const SIDE_EFFECT = /^[ \t]*import[ \t]*['"]([^'"]+)['"]/gm
const DYNAMIC = /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g
// Vite's import.meta.glob('./*/index.tsx') (the widgets): each file it matches is a dynamic import.
const GLOB = /\bimport\.meta\.glob\b[^(]*\(\s*['"]([^'"]+)['"]/g
const COMMENT_LINE = /^\s*(\/\/|\/\*|\*)/

function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full)
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : []
  })
}

function resolve(from, spec) {
  const base = path.resolve(path.dirname(from), spec.split('?')[0])
  const candidates = [...EXTENSIONS.map((ext) => base + ext), ...(base.endsWith('.js') ? [base.slice(0, -3) + '.ts', base.slice(0, -3) + '.tsx'] : [])]
  return candidates.find((file) => SOURCE.test(file) && fs.existsSync(file) && fs.statSync(file).isFile())
}

/** The relative paths a one-level glob pattern (`*` within a segment) matches from `dir`. */
function expandGlob(dir, pattern) {
  let paths = ['.']
  for (const segment of pattern.split('/').filter((s) => s !== '.')) {
    if (!segment.includes('*')) {
      paths = paths.map((p) => `${p}/${segment}`)
      continue
    }
    const match = new RegExp(`^${segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`)
    paths = paths.flatMap((p) => {
      const at = path.join(dir, p)
      return fs.existsSync(at) && fs.statSync(at).isDirectory() ? fs.readdirSync(at).filter((name) => match.test(name)).map((name) => `${p}/${name}`) : []
    })
  }
  return paths
}

/** The files `file` needs at run time, statically or through import() (and import.meta.glob). */
function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8')
  const specs = []
  for (const m of text.matchAll(FROM)) if (!m[2]) specs.push(m[3])
  for (const m of text.matchAll(SIDE_EFFECT)) specs.push(m[1])
  for (const line of text.split('\n')) {
    if (COMMENT_LINE.test(line)) continue
    for (const m of line.matchAll(DYNAMIC)) specs.push(m[1])
    for (const m of line.matchAll(GLOB)) specs.push(...expandGlob(path.dirname(file), m[1]))
  }
  return [...new Set(specs.filter((s) => s.startsWith('.')).map((s) => resolve(file, s)).filter(Boolean))]
}

const files = FOLDERS.flatMap((f) => sourceFiles(path.join(ROOT, f)))
const graph = new Map(files.map((f) => [f, importsOf(f).filter((to) => files.includes(to))]))

// Tarjan's strongly connected components: every component of more than one file is a cycle.
let index = 0
const indexOf = new Map()
const low = new Map()
const stack = []
const onStack = new Set()
const components = []
function connect(v) {
  indexOf.set(v, index)
  low.set(v, index++)
  stack.push(v)
  onStack.add(v)
  for (const w of graph.get(v)) {
    if (!indexOf.has(w)) {
      connect(w)
      low.set(v, Math.min(low.get(v), low.get(w)))
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)))
  }
  if (low.get(v) !== indexOf.get(v)) return
  const component = []
  let w
  do {
    w = stack.pop()
    onStack.delete(w)
    component.push(w)
  } while (w !== v)
  if (component.length > 1 || graph.get(v).includes(v)) components.push(component)
}
for (const f of files) if (!indexOf.has(f)) connect(f)

/** One cycle through the component's first file, as a path back to it. */
function cycleIn(component) {
  const inside = new Set(component)
  const start = component.sort()[0]
  const previous = new Map([[start, null]])
  const queue = [start]
  while (queue.length) {
    const v = queue.shift()
    for (const w of graph.get(v)) {
      if (w === start) {
        const chain = [start]
        for (let at = v; at !== start; at = previous.get(at)) chain.splice(1, 0, at)
        return [...chain, start]
      }
      if (inside.has(w) && !previous.has(w)) {
        previous.set(w, v)
        queue.push(w)
      }
    }
  }
  return [start]
}

const rel = (f) => path.relative(ROOT, f)
if (components.length === 0) {
  console.log(`import cycles: none in ${FOLDERS.join('/, ')}/ (${files.length} files, dynamic import() included)`)
} else {
  for (const component of components) {
    console.error(`import cycle among ${component.length} files: ${component.map(rel).sort().join(', ')}`)
    console.error(`  for example ${cycleIn(component).map(rel).join(' → ')}`)
  }
  process.exitCode = 1
}
