import type { PersonalKind } from '../../schemas/catalogue/endpoint'
import { maskAs, maskText } from '../../schemas/personal-data'

/** The masks themselves are shared with the BFF's answers (schemas/personal-data.ts). */
export { maskAs, maskEmail, maskIban, maskNif, maskPhone, maskText, SECRET_PLACEHOLDER } from '../../schemas/personal-data'

/**
 * Personal data as the audit keeps it: enough to tell two values apart, never the value.
 * A field the catalogue marks is masked by its kind; any other text is searched for what looks
 * like an IBAN, a NIF/NIE/CIF, a Spanish phone or a whole API key, since a free-text field
 * (observations, a description) may hold one too. Secrets are left out altogether.
 */

/** Text longer than this is cut (with an ellipsis). */
export const MAX_TEXT = 120

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

/** Cut to MAX_TEXT characters. */
export function cut(text: string, max = MAX_TEXT): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** One value as the audit keeps it: masked by its kind when it has one, else searched; cut. */
export function maskedText(value: string, kind: PersonalKind | undefined): string {
  return cut(kind ? maskAs(kind, value) : maskText(value))
}
