import { useSyncExternalStore } from 'react'
import type { Language, LocalizedText } from '../../schemas/i18n'
import { en } from './en'
import { es, type MessageKey } from './es'

const STORAGE_KEY = 'portal.lang'
const dictionaries: Record<Language, Record<MessageKey, string>> = { es, en }

function initial(): Language {
  try {
    const stored = localStorage.getItem(STORAGE_KEY)
    if (stored === 'en' || stored === 'es') return stored
  } catch {
    // storage unavailable
  }
  return 'es'
}

let current: Language = initial()
const listeners = new Set<() => void>()
if (typeof document !== 'undefined') document.documentElement.lang = current

export function getLanguage(): Language {
  return current
}

export function setLanguage(lang: Language): void {
  if (lang === current) return
  current = lang
  try {
    localStorage.setItem(STORAGE_KEY, lang)
  } catch {
    // storage unavailable: the choice lasts for this tab
  }
  document.documentElement.lang = lang
  for (const l of listeners) l()
}

export function translate(key: MessageKey, vars?: Record<string, string | number>, lang: Language = current): string {
  let text = dictionaries[lang][key] ?? es[key]
  if (vars) for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{${k}}`, String(v))
  return text
}

/** A text of a screen or the menu in the current language, Spanish when untranslated. */
export function localized(text: LocalizedText | string | undefined, lang: Language = current): string {
  if (text === undefined) return ''
  if (typeof text === 'string') return text
  return (lang === 'en' ? text.en : undefined) ?? text.es
}

/**
 * Calls `fn` after every language switch; returns the unsubscribe. The hooks below re-render
 * with it; set-up outside React follows the language with it (PrimeReact's, app/prime-setup.tsx).
 */
export function onLanguageChange(fn: () => void): () => void {
  listeners.add(fn)
  return () => void listeners.delete(fn)
}

/** The current language and a translator; re-renders when the language changes. */
export function useI18n() {
  const lang = useSyncExternalStore(onLanguageChange, getLanguage, getLanguage)
  return {
    lang,
    setLanguage,
    t: (key: MessageKey, vars?: Record<string, string | number>) => translate(key, vars, lang),
    l: (text: LocalizedText | string | undefined) => localized(text, lang),
  }
}

/**
 * A feature's own texts (a widget, the renderer's chrome), kept beside it rather than in one
 * shared file: Spanish is the reference and fixes the keys, English must give every one (the
 * type checker says which is missing). `useMessages(messages)` gives a translator bound to
 * the current language that re-renders on a switch; `messageIn` reads one outside React.
 *
 *   const messages = defineMessages({ es: { 'export': 'Exportar {n} filas' }, en: { export: 'Export {n} rows' } })
 *   const t = useMessages(messages); t('export', { n: 3 })
 */
export interface Messages<K extends string> {
  es: Record<K, string>
  en: Record<K, string>
}

export function defineMessages<K extends string>(messages: { es: Record<K, string>; en: NoInfer<Record<K, string>> }): Messages<K> {
  return messages
}

export function messageIn<K extends string>(messages: Messages<K>, key: K, vars?: Record<string, string | number>, lang: Language = current): string {
  let text = messages[lang][key] ?? messages.es[key]
  if (vars) for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{${k}}`, String(v))
  return text
}

export function useMessages<K extends string>(messages: Messages<K>): (key: K, vars?: Record<string, string | number>) => string {
  const lang = useSyncExternalStore(onLanguageChange, getLanguage, getLanguage)
  return (key, vars) => messageIn(messages, key, vars, lang)
}
