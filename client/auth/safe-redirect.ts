const ORIGIN = 'http://portal.invalid'

/**
 * The path to go to after sign-in: only same-origin relative paths pass; anything else
 * (`//evil.example`, `https://…`, `/\evil`, their encoded forms, control characters) gives `/`.
 */
export function safeRedirect(raw: string | null | undefined): string {
  if (!raw) return '/'
  let value = raw
  // Undo up to three layers of percent-encoding so `%2F%2Fevil` is judged as `//evil`.
  for (let i = 0; i < 3; i++) {
    let decoded: string
    try {
      decoded = decodeURIComponent(value)
    } catch {
      return '/'
    }
    if (decoded === value) break
    value = decoded
  }
  // oxlint-disable-next-line no-control-regex -- control characters are what this check rejects
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || /[\u0000-\u001f\u007f\s]/.test(value)) return '/'
  let url: URL
  try {
    url = new URL(value, ORIGIN)
  } catch {
    return '/'
  }
  if (url.origin !== ORIGIN) return '/'
  const path = `${url.pathname}${url.search}${url.hash}`
  return /^\/auth\/login\/?$/i.test(url.pathname) ? '/' : path
}
