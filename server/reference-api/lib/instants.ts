/** An instant as the API writes it: ISO 8601 UTC to the second, `2026-11-21T20:55:55Z`. */
export function isoInstant(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}
