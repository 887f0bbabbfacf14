import type { Text } from '../../../../schemas/screen'

/** A screen text's Spanish and English as the editors show them (a plain string is Spanish only). */
export function textParts(value: Text | undefined): { es: string; en: string } {
  if (value === undefined) return { es: '', en: '' }
  if (typeof value === 'string') return { es: value, en: '' }
  return { es: value.es, en: value.en ?? '' }
}

/**
 * The text for what was typed: none when both are empty (an optional text leaves the file), a
 * plain string when it was one and still has no English, else `{ es, en? }`. An English without
 * Spanish stays as typed: the schema check then names the field.
 */
export function textOf(es: string, en: string, previous: Text | undefined): Text | undefined {
  if (!es && !en) return undefined
  if (en) return { es, en }
  return typeof previous === 'string' ? es : { es }
}
