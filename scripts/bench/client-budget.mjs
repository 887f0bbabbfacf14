// The client's JavaScript budget per route, computed from the build's module graph (Vite's
// .vite/manifest.json): a route's initial JavaScript is the entry chunk, the chunks the route
// loads on first paint (its page chunk, its widget), and every chunk those import statically.
// Dynamic imports (other widgets, dialogs, the Markdown viewer, the dashboard's charts) are not
// counted: they load later. Each route also names the packages its initial JavaScript must not
// hold (read from the chunks' source maps): PrimeReact on the sign-in page, whose fields are the
// plain ones of client/ui/plain; Chart.js on the dashboard, whose charts load after its first paint.
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'

/** kB here are 1000 bytes, as Vite prints them. */
export const ROUTE_BUDGETS = [
  { route: 'login', path: '/auth/login', chunks: ['index.html', 'auth/LoginPage.tsx'], budgetKb: 120, excludes: ['primereact', 'chart.js'] },
  { route: 'dashboard', path: '/', chunks: ['index.html', 'app/signed-in.ts', 'widgets/dashboard/index.tsx'], budgetKb: 250, excludes: ['chart.js'] },
]

export function readViteManifest(distDir) {
  const file = path.join(distDir, '.vite', 'manifest.json')
  if (!fs.existsSync(file)) throw new Error(`${file} no existe: compila con build.manifest (npm run build)`)
  return JSON.parse(fs.readFileSync(file, 'utf8'))
}

/** Every file a set of manifest entries needs before running: themselves and their static imports, transitively. */
export function staticClosure(manifest, keys) {
  const files = new Set()
  const css = new Set()
  const seen = new Set()
  const visit = (key) => {
    if (seen.has(key)) return
    seen.add(key)
    const chunk = manifest[key]
    if (!chunk) throw new Error(`el manifiesto de Vite no tiene la entrada ${key}`)
    files.add(chunk.file)
    for (const c of chunk.css ?? []) css.add(c)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  for (const key of keys) visit(key)
  return { js: [...files].filter((f) => f.endsWith('.js')).sort(), css: [...css].sort() }
}

/** The npm packages whose code is in `files`, from their source maps (`node_modules/<package>/…`). */
export function packagesIn(distDir, files) {
  const packages = new Set()
  // The bundler's own runtime chunk has no map; a build without any has no source maps at all.
  const maps = files.map((f) => path.join(distDir, `${f}.map`)).filter((m) => fs.existsSync(m))
  if (files.length > 0 && maps.length === 0) throw new Error(`${distDir}: sin mapas de código fuente; compila con build.sourcemap`)
  for (const mapFile of maps) {
    for (const source of JSON.parse(fs.readFileSync(mapFile, 'utf8')).sources ?? []) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)
      if (m) packages.add(m[1])
    }
  }
  return [...packages].sort()
}

const gzipSize = (data) => zlib.gzipSync(data, { level: 9 }).length
const brotliSize = (data) => zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 10 } }).length

function sizes(distDir, files) {
  let raw = 0
  let gzip = 0
  let brotli = 0
  for (const f of files) {
    const data = fs.readFileSync(path.join(distDir, f))
    raw += data.length
    gzip += gzipSize(data)
    brotli += brotliSize(data)
  }
  return { raw, gzip, brotli }
}

/** Initial JavaScript (and CSS) per route, with the budget verdict and any package the route must not load. */
export function measureBudgets(distDir, budgets = ROUTE_BUDGETS) {
  const manifest = readViteManifest(distDir)
  return budgets.map(({ route, path: routePath, chunks, budgetKb, excludes = [] }) => {
    const closure = staticClosure(manifest, chunks)
    const js = sizes(distDir, closure.js)
    const css = sizes(distDir, closure.css)
    const packages = packagesIn(distDir, closure.js)
    const excludedFound = excludes.filter((p) => packages.includes(p))
    return {
      route,
      path: routePath,
      files: closure.js,
      jsRawKb: kb(js.raw),
      jsGzipKb: kb(js.gzip),
      jsBrotliKb: kb(js.brotli),
      cssGzipKb: kb(css.gzip),
      budgetKb,
      excludedFound,
      withinBudget: js.gzip <= budgetKb * 1000 && excludedFound.length === 0,
    }
  })
}

const kb = (bytes) => Math.round(bytes / 100) / 10

// Alone: `node scripts/bench/client-budget.mjs [dist]` prints the table and fails over budget.
if (import.meta.url === `file://${process.argv[1]}`) {
  const results = measureBudgets(path.resolve(process.argv[2] ?? 'dist/client'))
  for (const r of results) {
    const excluded = r.excludedFound.length ? ` · carga ${r.excludedFound.join(', ')}, que no debe` : ''
    console.log(`${r.route.padEnd(10)} JS ${r.jsGzipKb} kB gzip (${r.jsBrotliKb} kB br, ${r.jsRawKb} kB raw, ${r.files.length} files) budget ${r.budgetKb} kB ${r.withinBudget ? 'ok' : 'OVER'}${excluded}`)
  }
  if (results.some((r) => !r.withinBudget)) process.exitCode = 1
}
