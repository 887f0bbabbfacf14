/**
 * The one canonical form of an HTTP request target (RFC 9112 §3.2, origin-form only), so that
 * every decision about a request (routing, public or protected, catalogue match, CSRF,
 * logging) is taken on the very text that is then forwarded. Both the BFF and the reference API
 * put every request through it before routing; pure, with no dependency.
 *
 * Canonical form of the path (RFC 3986 §6.2.2): escapes of unreserved characters decoded
 * (`%62ff` is `bff`), other escapes kept with upper-case hex. Refused, rather than guessed at:
 * anything but origin-form (`http://host/…`, `*`), a fragment (`#`), malformed escapes,
 * escaped `/` or `\`, a literal `\`, control characters and NUL (escaped or not), bytes
 * outside ASCII, `.` and `..` segments (escaped or not) and empty segments (`//`). A trailing
 * slash is kept (the routers ignore it). The query is checked (no fragment, no malformed
 * escape, no control character) but not rewritten: its parser decides what it means.
 */

export type CanonicalTarget = { ok: true; path: string; query: string } | { ok: false; reason: string }

/** The common case, checked first on every request: plain segments, no escape, no dot segment. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~!$&'()*+,;=:@-][A-Za-z0-9_.~!$&'()*+,;=:@-]*)*\/?$/
/** A query of printable ASCII without `#`, whose every `%` starts an escape. */
const PLAIN_QUERY = /^(?:[\x21\x22\x24\x26-\x7e]|%[0-9A-Fa-f]{2})*$/

const HEX = '0123456789ABCDEF'
const hexValue = (c: number) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1)
const isUnreserved = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 95 || c === 126

export function canonicalTarget(raw: string): CanonicalTarget {
  if (raw.charCodeAt(0) !== 47 /* / */) return { ok: false, reason: 'la dirección debe empezar por «/»' }
  const q = raw.indexOf('?')
  const rawPath = q < 0 ? raw : raw.slice(0, q)
  const query = q < 0 ? '' : raw.slice(q + 1)
  if (query !== '' && !PLAIN_QUERY.test(query)) return { ok: false, reason: 'la consulta tiene caracteres o escapes no válidos' }
  if (PLAIN_PATH.test(rawPath)) return { ok: true, path: rawPath, query }
  const path = canonicalPath(rawPath)
  return typeof path === 'string' ? { ok: true, path, query } : path
}

function canonicalPath(raw: string): string | { ok: false; reason: string } {
  let out = ''
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i)
    if (c === 37 /* % */) {
      const hi = hexValue(raw.charCodeAt(i + 1))
      const lo = hexValue(raw.charCodeAt(i + 2))
      if (hi < 0 || lo < 0) return { ok: false, reason: 'la ruta tiene un escape «%» mal formado' }
      const byte = hi * 16 + lo
      i += 2
      if (byte === 47 || byte === 92) return { ok: false, reason: 'la ruta tiene «/» o «\\» escapados' }
      if (byte < 32 || byte === 127) return { ok: false, reason: 'la ruta tiene caracteres de control' }
      out += isUnreserved(byte) ? String.fromCharCode(byte) : `%${HEX[hi]}${HEX[lo]}`
      continue
    }
    if (c <= 32 || c >= 127) return { ok: false, reason: 'la ruta tiene espacios, caracteres de control o no ASCII' }
    if (c === 92 /* \ */) return { ok: false, reason: 'la ruta tiene «\\»' }
    if (c === 35 /* # */) return { ok: false, reason: 'la dirección no puede llevar fragmento («#»)' }
    out += raw[i]
  }
  const segments = out.split('/')
  // segments[0] is the empty text before the leading slash; the last may be empty (trailing slash).
  for (let i = 1; i < segments.length; i++) {
    const s = segments[i]!
    if (s === '.' || s === '..') return { ok: false, reason: 'la ruta tiene segmentos «.» o «..»' }
    if (s === '' && i < segments.length - 1) return { ok: false, reason: 'la ruta tiene segmentos vacíos («//»)' }
  }
  return out
}

/**
 * A raw request (Node's `url` and `rawHeaders`) to the URL its router must see: the canonical
 * target, or `/` with the reason it is refused (no canonical form, or the Host header given
 * twice: Node keeps only the first, a proxy in front may have used the other).
 */
export function canonicalRequestUrl(req: { url?: string; rawHeaders: readonly string[] }): { url: string; refused?: string } {
  const raw = req.url ?? ''
  let hosts = 0
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.length === 4 && req.rawHeaders[i]!.toLowerCase() === 'host') hosts++
  if (hosts > 1) return { url: '/', refused: 'la petición lleva más de una cabecera Host' }
  const target = canonicalTarget(raw)
  if (!target.ok) return { url: '/', refused: target.reason }
  return { url: raw.indexOf('?') < 0 ? target.path : `${target.path}?${target.query}` }
}
