import type { PersonalKind } from '../../schemas/catalogue/endpoint'
import { maskAs, maskIban, maskNif, maskPhone } from '../../schemas/personal-data'

/** The masks themselves are shared with the BFF's answers (schemas/personal-data.ts). */
export { maskAs, maskEmail, maskIban, maskNif, maskPhone } from '../../schemas/personal-data'

/**
 * Personal data as the audit keeps it: enough to tell two values apart, never the value.
 * A field the catalogue marks is masked by its kind; any other text is searched for what looks
 * like an IBAN, a NIF/NIE/CIF, a Spanish phone or a whole API key, since a free-text field
 * (observations, a description) may hold one too. Secrets are left out altogether.
 */

/** Text longer than this is cut (with an ellipsis). */
export const MAX_TEXT = 120
export const SECRET_PLACEHOLDER = '[oculto]'

/** Field names that hold secrets: never kept, masked or not. */
const SECRET_NAME = /pass(word)?|contrase|token|secret|^clave$/i
/** Field names whose values are personal even where the catalogue does not say (nested objects). */
const NAME_KINDS: [RegExp, PersonalKind][] = [
  [/iban/i, 'iban'],
  [/^(nif|cif|nie|dni|documento)$/i, 'nif'],
  [/telefono|tel[eé]fono|phone|movil|m[oó]vil/i, 'phone'],
]

export const isSecretName = (name: string) => SECRET_NAME.test(name)

export function kindOfName(name: string): PersonalKind | undefined {
  return NAME_KINDS.find(([re]) => re.test(name))?.[1]
}

const IBAN_IN_TEXT = /\b[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{4}){2,7}(?:[ -]?\d[A-Z0-9]{0,3})?\b/gi
const API_KEY_IN_TEXT = /\b(pk_[0-9a-f]{16})\.[A-Za-z0-9_-]{8,}/g
const NIF_IN_TEXT = /\b(?:\d{8}|[XYZ][ -]?\d{7})[ -]?[A-Z]\b/gi
const CIF_IN_TEXT = /\b[ABCDEFGHJNPQRSUVW][ -]?\d{7}[0-9A-J]\b/gi
const PHONE_IN_TEXT = /(?<![\w+])(?:\+34[ -]?|0034[ -]?)?[6789](?:[ -]?\d){8}(?![\w])/g

/** Text with whatever looks like personal data or a key masked in place. */
export function maskText(text: string): string {
  if (!/\d/.test(text)) return text
  return text
    .replace(IBAN_IN_TEXT, (m) => (m.replace(/[\s-]/g, '').length >= 15 ? maskIban(m) : m))
    .replace(API_KEY_IN_TEXT, (_m, publicId: string) => `${publicId}.${SECRET_PLACEHOLDER}`)
    .replace(NIF_IN_TEXT, maskNif)
    .replace(CIF_IN_TEXT, maskNif)
    .replace(PHONE_IN_TEXT, maskPhone)
}

/** Cut to MAX_TEXT characters. */
export function cut(text: string, max = MAX_TEXT): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** One value as the audit keeps it: masked by its kind when it has one, else searched; cut. */
export function maskedText(value: string, kind: PersonalKind | undefined): string {
  return cut(kind ? maskAs(kind, value) : maskText(value))
}
