import fp from 'fastify-plugin'
import helmet, { type HelmetOptions } from 'helmet'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { APP_PAGES } from '../../../schemas/app-pages'

/**
 * The protections, stricter than helmet's defaults: no inline or foreign scripts, no plugins,
 * no <base>, never framed (but the studio's preview, by this origin), no referrer outside this origin, HSTS in production. Styles allow
 * 'unsafe-inline' because PrimeReact injects its component styles at run time; scripts do not.
 */
function helmetOptions(production: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'worker-src': ["'self'", 'blob:'],
        'frame-src': ["'self'", 'blob:'],
        'manifest-src': ["'self'"],
        'form-action': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'none'"],
        'frame-ancestors': ["'none'"],
        ...(production ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    strictTransportSecurity: production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    // Brand artwork and downloads are only ever used by this origin.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  }
}

/**
 * The headers helmet sets with these options. They depend on the options alone (no
 * per-request CSP nonce or function), so helmet runs once, against a stand-in response, at
 * start: running it on every request rebuilt all its middlewares each time, a measurable
 * share of a proxied request's CPU.
 */
export function securityHeaderValues(production: boolean): Record<string, string> {
  const headers: Record<string, string> = {}
  const response = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  }
  helmet(helmetOptions(production))({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err
  })
  return headers
}

/**
 * Of helmet's headers, those that only act on an HTML document (process isolation, opener,
 * DNS prefetch, legacy IE downloads and XSS filter). Data answers (`/api/*`, `/bff/*`: JSON,
 * exports) leave them out: each header is work on every proxied answer and these would
 * protect nothing there. Everything that does apply to a fetched or opened answer stays:
 * CSP, nosniff, framing, CORP, referrer, cross-domain policies and HSTS.
 */
const DOCUMENT_ONLY = ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-xss-protection']

/**
 * The headers for answers that are data rather than a page: the document set minus
 * DOCUMENT_ONLY, plus `Cache-Control: no-store`, since they carry sessions and personal data
 * that no browser or shared cache may keep. Set here, once, so every data answer has it,
 * errors included, and the BFF's own `/api/*` routes (password change and recovery), which the
 * proxy's hook does not reach. A route whose answer may be kept (brand artwork) replaces it.
 */
function dataHeaderValues(documentHeaders: Record<string, string>): Record<string, string> {
  return { ...Object.fromEntries(Object.entries(documentHeaders).filter(([name]) => !DOCUMENT_ONLY.includes(name))), 'cache-control': 'no-store' }
}

const isDataPath = (url: string) => url.startsWith('/api/') || url.startsWith('/bff/')

/**
 * The pages the portal draws inside itself (the screen studio's preview, schemas/app-pages.ts):
 * framed by this origin only. Every other page stays unframeable.
 */
const SELF_FRAMED: ReadonlySet<string> = new Set(APP_PAGES.map((p) => p.path.toLowerCase()))

function selfFramedValues(documentHeaders: Record<string, string>): Record<string, string> {
  return { ...documentHeaders, 'content-security-policy': documentHeaders['content-security-policy']!.replace("frame-ancestors 'none'", "frame-ancestors 'self'"), 'x-frame-options': 'SAMEORIGIN' }
}

/** Whether a request is for a self-framed page; the cheap length test first, as this runs on every request. */
const SELF_FRAMED_MAX = Math.max(...[...SELF_FRAMED].map((p) => p.length))
function isSelfFramed(url: string): boolean {
  if (url.length < 2 || url.startsWith('/api/') || url.startsWith('/bff/')) return false
  const path = (url.split('?', 1)[0] ?? '').replace(/\/+$/, '')
  return path.length <= SELF_FRAMED_MAX && SELF_FRAMED.has(path.toLowerCase())
}

/**
 * Security headers on every answer. The first cross-cutting plugin (only the tracing span starts
 * earlier): its hook runs before the others, so every answer carries the protections, the
 * refusals of the hooks after it included (bad request target, foreign host, CSRF, overload).
 */
export const securityHeadersPlugin = fp<{ production: boolean }>(
  async function securityHeaders(app, opts) {
    const document = securityHeaderValues(opts.production)
    const data = dataHeaderValues(document)
    const selfFramed = selfFramedValues(document)
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(isDataPath(request.url) ? data : isSelfFramed(request.url) ? selfFramed : document)
      done()
    })
  },
  { name: 'security-headers', fastify: '5.x' },
)
