/**
 * The user-visible texts of a screen, Spanish and English side by side: every `{ es, en? }`
 * value and every plain Spanish string under a text key, with its JSON path. A text without
 * English falls back to Spanish on screen; the studio flags it.
 */
export interface ScreenText {
  /** JSON pointer of the text (`/root/children/0/columns/2/header`). */
  path: string
  es: string
  en: string
}

/** Keys whose string value is a text users read (a plain string there is Spanish only). */
const TEXT_KEYS = new Set(['title', 'label', 'header', 'description', 'success', 'confirm', 'placeholder', 'message', 'dialogTitle', 'submitLabel', 'emptyMessage', 'errorArea', 'errorMessage', 'found'])

const isLocalized = (v: unknown): v is { es: string; en?: string } =>
  !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { es?: unknown }).es === 'string' && Object.keys(v).every((k) => k === 'es' || k === 'en')

export function screenTexts(screen: unknown): ScreenText[] {
  const out: ScreenText[] = []
  const visit = (value: unknown, path: string, key: string) => {
    if (isLocalized(value)) {
      out.push({ path, es: value.es, en: value.en ?? '' })
      return
    }
    if (typeof value === 'string') {
      if (TEXT_KEYS.has(key) && value.trim()) out.push({ path, es: value, en: '' })
      return
    }
    if (Array.isArray(value)) return value.forEach((v, i) => visit(v, `${path}/${i}`, key))
    if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, `${path}/${k}`, k)
  }
  visit(screen, '', '')
  return out
}

/** The texts still without English. */
export const missingEnglish = (texts: readonly ScreenText[]) => texts.filter((t) => !t.en.trim())

/** A copy of the screen with the text at `path` set to `{ es, en }` (English left out when empty). */
export function withText(screen: unknown, path: string, es: string, en: string): unknown {
  const copy = structuredClone(screen) as Record<string, unknown>
  const keys = path.split('/').slice(1)
  let at: Record<string, unknown> = copy
  for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>
  at[keys.at(-1)!] = en.trim() ? { es, en } : { es }
  return copy
}
