/**
 * What never reaches a log whole: tokens, passwords, cookies, IBANs, NIFs. Query values of
 * these keys are masked in logged URLs; headers and bodies are redacted by path in the logger.
 */
const SENSITIVE_QUERY_KEYS = new Set([
  'iban',
  'nif',
  'identificador',
  'token',
  'password',
  'newpassword',
  'oldpassword',
  'refreshtoken',
  'apikey',
])

/** Keeps the first and last two characters of a value: enough to correlate, not to use. */
export function maskValue(value: string): string {
  if (value.length <= 4) return '****'
  return `${value.slice(0, 2)}${'*'.repeat(Math.min(value.length - 4, 12))}${value.slice(-2)}`
}

/** The URL with sensitive query values masked. */
export function maskUrl(url: string): string {
  const q = url.indexOf('?')
  if (q < 0) return url
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      if (eq < 0) return pair
      const key = decodeURIComponentSafe(pair.slice(0, eq)).toLowerCase()
      return SENSITIVE_QUERY_KEYS.has(key) ? `${pair.slice(0, eq)}=${maskValue(decodeURIComponentSafe(pair.slice(eq + 1)))}` : pair
    })
    .join('&')
  return `${url.slice(0, q)}?${query}`
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '))
  } catch {
    return s
  }
}

/** pino `redact` paths for headers and bodies. */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  '*.password',
  '*.Password',
  '*.token',
  '*.refreshToken',
  '*.newPassword',
  '*.NewPassword',
  '*.OldPassword',
  '*.IBAN',
  '*.Iban',
  '*.iban',
  '*.ApiKey',
]
