import type { PolicyCondition, PolicyLookup, ValuePath } from '../../schemas/approval'
import type { LocalizedText } from '../../schemas/i18n'

/**
 * A policy's condition in words, for the people who edit and approve policies: Spanish and
 * English. `{ value: 'body.Estado', in: ['baja'] }` reads «el campo «Estado» enviado es «baja»».
 */

type Lang = 'es' | 'en'

const quoted = (v: unknown) => `«${String(v)}»`

function pathText(path: ValuePath, lang: Lang): string {
  const dot = path.search(/[.[]/)
  const source = dot < 0 ? path : path.slice(0, dot)
  const rest = dot < 0 ? '' : path.slice(dot).replace(/^\./, '')
  const items = rest.endsWith('[]')
  const name = items ? rest.slice(0, -2) : rest
  if (source === 'body') {
    if (name === '') return lang === 'es' ? 'cada elemento enviado' : 'any item sent'
    if (items) return lang === 'es' ? `cada elemento de ${quoted(name)} enviado` : `any item of ${quoted(name)} sent`
    return lang === 'es' ? `el campo ${quoted(name)} enviado` : `the field ${quoted(name)} sent`
  }
  if (source === 'query') return lang === 'es' ? `el parámetro ${quoted(name)}` : `the parameter ${quoted(name)}`
  return lang === 'es' ? `el campo ${quoted(name)} del registro actual` : `the record's current ${quoted(name)}`
}

function lookupText(lookup: PolicyLookup, lang: Lang): string {
  return lang === 'es' ? ` (su ${quoted(lookup.field)} según ${quoted(lookup.call)})` : ` (its ${quoted(lookup.field)} as ${quoted(lookup.call)} lists it)`
}

function listText(values: readonly unknown[], lang: Lang): string {
  const words = values.map(quoted)
  if (words.length === 1) return words[0]!
  return `${words.slice(0, -1).join(', ')} ${lang === 'es' ? 'o' : 'or'} ${words.at(-1)}`
}

function text(c: PolicyCondition, lang: Lang, nested: boolean): string {
  const wrap = (s: string) => (nested ? `(${s})` : s)
  if ('all' in c) return wrap(c.all.map((x) => text(x, lang, true)).join(lang === 'es' ? ' y ' : ' and '))
  if ('any' in c) return wrap(c.any.map((x) => text(x, lang, true)).join(lang === 'es' ? ' o ' : ' or '))
  // Always in brackets: what the «no» covers stays clear.
  if ('not' in c) return lang === 'es' ? `no (${text(c.not, lang, false)})` : `not (${text(c.not, lang, false)})`
  if ('changed' in c) return lang === 'es' ? `cambia ${quoted(c.changed)}` : `${quoted(c.changed)} changes`
  const paths = Array.isArray(c.value) ? c.value : [c.value]
  const subject = paths.map((p) => pathText(p, lang)).join(lang === 'es' ? ' o ' : ' or ') + (c.lookup ? lookupText(c.lookup, lang) : '')
  if (c.in) return lang === 'es' ? `${subject} es ${listText(c.in, lang)}` : `${subject} is ${listText(c.in, lang)}`
  return lang === 'es' ? `${subject} tiene valor` : `${subject} has a value`
}

/** The condition in both languages; no condition: every call of the policy is held. */
export function describeCondition(when: PolicyCondition | undefined): LocalizedText {
  if (!when) return { es: 'Siempre: se retiene cada llamada de la política.', en: 'Always: every call of the policy is held.' }
  const es = text(when, 'es', false)
  const en = text(when, 'en', false)
  return { es: `${es.charAt(0).toUpperCase()}${es.slice(1)}.`, en: `${en.charAt(0).toUpperCase()}${en.slice(1)}.` }
}
