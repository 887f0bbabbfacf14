import react from '@vitejs/plugin-react'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { defineConfig, type Plugin } from 'vite'

const THEMES_DIR = path.resolve('node_modules/primereact/resources/themes')
/** The PrimeReact themes the brands use, light and dark (brand.json `Theme` names the light one). */
export const THEMES = ['green', 'cyan', 'teal'].flatMap((c) => [`lara-light-${c}`, `lara-dark-${c}`])

/**
 * Lara's light primaries (emerald/cyan/teal 500) carry white text at about 2.5:1 contrast.
 * The brand themes use the 700 shade for fills and 800 for hover, so text passes WCAG AA.
 */
/** Severity fills (danger, success, warning, info, help) darkened the same way, in every light theme. */
const ACCESSIBLE_SEVERITIES: Record<string, string> = {
  '#ef4444': '#b91c1c',
  '#dc2626': '#991b1b',
  '#22c55e': '#15803d',
  '#16a34a': '#166534',
  '#f97316': '#c2410c',
  '#ea580c': '#9a3412',
  '#0ea5e9': '#0369a1',
  '#0284c7': '#075985',
  '#a855f7': '#7e22ce',
  '#9333ea': '#6b21a8',
  // toast and message texts on their pastel backgrounds
  '#1ea97c': '#0f6e50',
  '#3b82f6': '#1d4ed8',
  '#cc8925': '#854d0e',
  '#ff5757': '#b42318',
  // .p-error texts and invalid-field borders (about 4:1 on white as published)
  '#e24c4c': '#b42318',
}
const ACCESSIBLE_PRIMARY: Record<string, Record<string, string>> = {
  'lara-light-green': { '#10b981': '#047857', '#059669': '#065f46', ...ACCESSIBLE_SEVERITIES },
  'lara-light-cyan': { '#06b6d4': '#0e7490', '#0891b2': '#155e75', ...ACCESSIBLE_SEVERITIES },
  'lara-light-teal': { '#14b8a6': '#0f766e', '#0d9488': '#115e59', ...ACCESSIBLE_SEVERITIES },
}

/**
 * lara-light-teal as published paints highlighted things (selected menu entry, tree node, list
 * option, table row) with the same colour for text and background, so they read as blank
 * blocks. Its siblings use the 50 shade behind the 700 text; teal gets the same.
 */
function fixTealHighlight(css: string): string {
  return css
    .replace('--highlight-bg: #0f766e;', '--highlight-bg: #f0fdfa;')
    .replace(/\{[^{}]*\}/g, (block) => (/(^|[^-])color: #0f766e/.test(block) && /background: #0f766e/.test(block) ? block.replace(/background: #0f766e/g, 'background: #f0fdfa') : block))
}

export function brandThemeCss(theme: string, css: string): string {
  const map = ACCESSIBLE_PRIMARY[theme]
  if (!map) return css
  const fixed = theme === 'lara-light-teal' ? fixTealHighlight(css) : css
  return fixed.replace(/#[0-9a-fA-F]{6}\b/g, (hex) => map[hex.toLowerCase()] ?? hex)
}

function themeFile(theme: string, rel: string): Buffer | string {
  const data = fs.readFileSync(path.join(THEMES_DIR, theme, rel))
  return rel.endsWith('.css') ? brandThemeCss(theme, data.toString('utf8')) : data
}

/** Serves the brand themes at /themes/<name>/… in dev and copies them into the build. */
function primeThemes(): Plugin {
  return {
    name: 'portal-prime-themes',
    configureServer(server) {
      server.middlewares.use('/themes', (req, res, next) => {
        const rel = decodeURIComponent((req.url ?? '').split('?')[0] ?? '')
        const file = path.join(THEMES_DIR, rel)
        const theme = rel.split('/')[1] ?? ''
        if (!THEMES.includes(theme) || !file.startsWith(THEMES_DIR) || !fs.existsSync(file)) return next()
        res.setHeader('content-type', file.endsWith('.css') ? 'text/css' : 'font/woff2')
        res.end(themeFile(theme, rel.split('/').slice(2).join('/')))
      })
    },
    generateBundle() {
      for (const theme of THEMES) {
        const dir = path.join(THEMES_DIR, theme)
        const walk = (sub: string) => {
          for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
            const rel = path.join(sub, entry.name)
            if (entry.isDirectory()) walk(rel)
            else if (/\.(css|woff2)$/.test(entry.name)) {
              this.emitFile({ type: 'asset', fileName: `themes/${theme}/${rel}`, source: themeFile(theme, rel) })
            }
          }
        }
        walk('')
      }
    },
  }
}

/** Writes build.json with a fresh build id; the BFF reports it and the client checks it hourly. */
function buildId(): Plugin {
  const id = `${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')}-${randomBytes(3).toString('hex')}`
  return {
    name: 'portal-build-id',
    config: () => ({ define: { __BUILD_ID__: JSON.stringify(id) } }),
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'build.json', source: JSON.stringify({ buildId: id }) })
    },
  }
}

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)
/** Text files worth compressing (woff/woff2 fonts are compressed already; source maps are compressed on the fly when asked for). */
const COMPRESSIBLE = /\.(js|css|html|svg|json|ttf|eot)$/

/**
 * Writes a brotli (.br, quality 10) and a gzip (.gz, level 9) copy next to every text file of
 * the build, once, so the BFF serves them without compressing on each request.
 */
function precompress(): Plugin {
  return {
    name: 'portal-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? ''
      const files = Object.keys(bundle).filter((file) => COMPRESSIBLE.test(file))
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(dir, file)
          const data = await fs.promises.readFile(full)
          if (data.length < 1024) return
          const [br, gz] = await Promise.all([
            brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 10, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
            gzip(data, { level: 9 }),
          ])
          if (br.length < data.length) await fs.promises.writeFile(`${full}.br`, br)
          if (gz.length < data.length) await fs.promises.writeFile(`${full}.gz`, gz)
        }),
      )
    },
  }
}

/**
 * React Router 7 ships a production build, but its package exports send every condition to the
 * development one (remix-run/react-router#12532), with its dev-only checks and warnings: the
 * production bundle of the portal took that. The build now takes the production files.
 */
function reactRouterProduction(): Plugin {
  const dir = path.resolve('node_modules/react-router/dist/production')
  return {
    name: 'portal-react-router-production',
    apply: 'build',
    config: () => ({
      resolve: {
        alias: [
          { find: /^react-router$/, replacement: path.join(dir, 'index.mjs') },
          { find: /^react-router\/dom$/, replacement: path.join(dir, 'dom-export.mjs') },
        ],
      },
    }),
  }
}

const bff = process.env.BFF_URL ?? 'http://127.0.0.1:3000'
const proxied = ['/bff', '/api', '/healthz', '/readyz', '/favicon.ico'] as const

export default defineConfig({
  root: 'client',
  publicDir: false,
  plugins: [react(), reactRouterProduction(), primeThemes(), buildId(), precompress()],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // .vite/manifest.json: the module graph the client budget (npm run bench:client) is computed from.
    manifest: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        // Everything the entry needs before its first paint in one chunk: one request, and one
        // compression window instead of a dozen small files each compressed on its own.
        // The same for the small modules the signed-in app loads before its first screen and the
        // lazily loaded node views share (render context, templates, actions, formatters,
        // confirmation): left alone, each would be a chunk of its own.
        codeSplitting: {
          groups: [
            { name: 'boot', tags: ['$initial'] },
            {
              name: 'screen-core',
              test: /client\/(renderer\/(context|template|messages|node-renderer|screen-title|actions\/(run-action|messages))|ui\/(confirm|messages|format|states)|api\/query-keys)\.tsx?$/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    host: '127.0.0.1',
    // Keep the Host header: the BFF picks the brand from it.
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: bff, changeOrigin: false }])),
  },
})
