import type { PersonalKind } from './catalogue/endpoint'

/**
 * The one masking of personal data, for everything that shows or keeps it: the BFF's answers to
 * users (issue 16), the audit log, the access log. A masked value keeps enough to tell two apart
 * (`ES91 **** **** **** **** 1332`, `*****678Z`) and never the value. Every mask is idempotent
 * (masking a masked value gives it back), and a masked value is recognisable by `isMasked`, so
 * the client can offer to reveal it and the BFF can tell a form that sends it back unchanged.
 */

/** The permission that lets a user reveal, with a reason, a value the portal shows masked. */
export const PERSONAL_DATA_PERMISSION = 'VERDATOSPERSONALES'

/**
 * Bounds of the reason given to see personal data clear (a reveal, a clear export), kept in the
 * audit: long enough to say something, short enough to read there (after trimming).
 */
export const ACCESS_REASON_MIN = 5
export const ACCESS_REASON_MAX = 300

/**
 * The kinds the BFF masks in answers: customers' identity and contact data. A CUPS names a
 * supply point, not a person (the SIPS lookup works on it), and `free` is a list filter's text.
 */
export const ANSWER_MASKED_KINDS: ReadonlySet<PersonalKind> = new Set<PersonalKind>(['iban', 'nif', 'phone', 'email', 'address', 'text'])

/** What stands for a secret (a key's secret part): never shown, masked or not. */
export const SECRET_PLACEHOLDER = '[oculto]'

/** The character that stands for each hidden character. */
const HIDDEN = '*'

/** Keeps the first and last two characters of a value: enough to correlate, not to use. */
export function maskValue(value: string): string {
  if (value.length <= 4) return '****'
  return `${value.slice(0, 2)}${HIDDEN.repeat(Math.min(value.length - 4, 12))}${value.slice(-2)}`
}

/** `ES91 **** **** **** **** 1332`: the country and check digits, and the last four. */
export function maskIban(value: string): string {
  const plain = value.replace(/[\s-]/g, '').toUpperCase()
  if (plain.length < 9) return '****'
  const hidden = plain.length - 8
  return `${plain.slice(0, 4)} ${Array.from({ length: Math.ceil(hidden / 4) }, () => '****').join(' ')} ${plain.slice(-4)}`
}

/** `*****678Z`: the last three digits and the letter. */
export function maskNif(value: string): string {
  const plain = value.replace(/[\s-]/g, '').toUpperCase()
  // Shorter than a NIF (nine): too little would stay hidden.
  if (plain.length < 8) return '****'
  return `${HIDDEN.repeat(plain.length - 4)}${plain.slice(-4)}`
}

/** `******456`: the last three digits (hidden digits count as digits, so a masked phone stays as it is). */
export function maskPhone(value: string): string {
  const digits = value.replace(/[^\d*]/g, '')
  const local = digits.length > 9 ? digits.slice(-9) : digits
  if (local.length < 7 || local.replace(/\*/g, '').length < 3) return '****'
  return `${HIDDEN.repeat(local.length - 3)}${local.slice(-3)}`
}

/** `a****@dominio.es`. */
export function maskEmail(value: string): string {
  const text = value.trim()
  const at = text.lastIndexOf('@')
  if (at < 1) return '****'
  return `${text[0]}****${text.slice(at)}`
}

/** `Calle ****`: the kind of way (its first word, when it is only letters), never the name or number. */
export function maskAddress(value: string): string {
  const first = /^\s*([A-Za-zÁÉÍÓÚÑÜáéíóúñü/.]{1,12})\s+\S/.exec(value)?.[1]
  return first ? `${first} ****` : '****'
}

export function maskAs(kind: PersonalKind, value: string): string {
  switch (kind) {
    case 'iban':
      return maskIban(value)
    case 'nif':
      return maskNif(value)
    case 'phone':
      return maskPhone(value)
    case 'email':
      return maskEmail(value)
    case 'address':
      return maskAddress(value)
    case 'text':
      return maskText(value, { emails: true })
    default:
      return maskValue(value)
  }
}

const IBAN_IN_TEXT = /\b[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{4}){2,7}(?:[ -]?\d[A-Z0-9]{0,3})?\b/gi
const API_KEY_IN_TEXT = /\b(pk_[0-9a-f]{16})\.[A-Za-z0-9_-]{8,}/g
const NIF_IN_TEXT = /\b(?:\d{8}|[XYZ][ -]?\d{7})[ -]?[A-Z]\b/gi
const CIF_IN_TEXT = /\b[ABCDEFGHJNPQRSUVW][ -]?\d{7}[0-9A-J]\b/gi
const PHONE_IN_TEXT = /(?<![\w+])(?:\+34[ -]?|0034[ -]?)?[6789](?:[ -]?\d){8}(?![\w])/g
const EMAIL_IN_TEXT = /(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g

/**
 * Text with whatever looks like personal data or an API key masked in place: free text (a
 * note, a description) may hold one. E-mails too when asked (the answers' history notes; the
 * audit keeps staff e-mails readable).
 */
export function maskText(text: string, opts: { emails?: boolean } = {}): string {
  const masked = /\d/.test(text)
    ? text
        .replace(IBAN_IN_TEXT, (m) => (m.replace(/[\s-]/g, '').length >= 15 ? maskIban(m) : m))
        .replace(API_KEY_IN_TEXT, (_m, publicId: string) => `${publicId}.${SECRET_PLACEHOLDER}`)
        .replace(NIF_IN_TEXT, maskNif)
        .replace(CIF_IN_TEXT, maskNif)
        .replace(PHONE_IN_TEXT, maskPhone)
    : text
  return opts.emails && masked.includes('@') ? masked.replace(EMAIL_IN_TEXT, maskEmail) : masked
}

/**
 * Whether a text is what a mask produces: the client offers «Mostrar» for it and keeps it out of
 * what a form sends; the BFF drops it from a write. Clear personal data never holds four hidden
 * characters in a row.
 */
export function isMasked(value: unknown): value is string {
  return typeof value === 'string' && value.includes('****')
}
