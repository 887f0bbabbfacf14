/**
 * What never reaches a log whole: tokens, passwords, cookies and personal data. A logged URL
 * keeps its path and masks query values: those the endpoint catalogue marks as personal data
 * when the request is a catalogued call, every value otherwise (a page's or an unknown call's
 * query may hold anything, a password-reset link's token for one). Headers and bodies are
 * redacted by path in the logger.
 */
import { maskValue } from '../../schemas/personal-data'

/**
 * The URL with query values masked: those of the parameters named in `personal` (an array
 * parameter by its name, `filterQueries` for `filterQueries[0]`), or all of them when
 * `personal` is null.
 */
export function maskUrl(url: string, personal: ReadonlySet<string> | null = null): string {
  const q = url.indexOf('?')
  if (q < 0) return url
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      if (eq < 0) return pair
      if (personal) {
        const key = decodeURIComponentSafe(pair.slice(0, eq))
        const bracket = key.indexOf('[')
        if (!personal.has(bracket > 0 ? key.slice(0, bracket) : key)) return pair
      }
      return `${pair.slice(0, eq)}=${maskValue(decodeURIComponentSafe(pair.slice(eq + 1)))}`
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
