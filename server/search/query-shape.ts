/**
 * What a palette query looks like, so only the lookups that can match are asked. Patterns only
 * (no check digits): a mistyped NIF still finds nothing rather than something else.
 */

export interface QueryShape {
  /** The query trimmed, inner blanks collapsed. */
  text: string
  /** Upper case without blanks or dashes: how identifiers are written. */
  compact: string
  /** A whole CUPS: ES, 16 digits, 2 control letters, maybe a border point (2 more). */
  cups: boolean
  /** A DNI, NIE or CIF. */
  nif: boolean
  /** A contract code or the start of one (`EV-2026-0001`, `EV-2026`). */
  contractCode: string | null
  /** Words that may be part of a person's or agent's name (or an agent code). */
  name: boolean
}

const CUPS = /^ES\d{16}[A-Z]{2}(\d[FPCRXYZ])?$/
const DNI = /^\d{8}[A-Z]$/
const NIE = /^[XYZ]\d{7}[A-Z]$/
const CIF = /^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/
/** Two letters of brand, a year, the sequence (spec: PP-AAAA-NNNNNN), typed from the start. */
const CONTRACT_PREFIX = /^[A-Z]{2}-\d{4}(-\d{0,6})?$/
const CONTRACT_COMPACT = /^([A-Z]{2})(\d{4})(\d{1,6})$/
const NAME = /^[\p{L}][\p{L}\p{M} .'·-]*$/u
/** Agent codes (`AG-0012`) are searched with names. */
const AGENT_CODE = /^[A-Z]{2,4}-?\d{1,6}$/

export function queryShape(raw: string): QueryShape {
  const text = raw.trim().replace(/\s+/g, ' ')
  const compact = text.toUpperCase().replace(/[\s-]/g, '')
  const upper = text.toUpperCase().replace(/\s/g, '')
  let contractCode: string | null = null
  if (CONTRACT_PREFIX.test(upper)) contractCode = upper
  else {
    const m = CONTRACT_COMPACT.exec(compact)
    if (m) contractCode = `${m[1]}-${m[2]}-${m[3]}`
  }
  const cups = CUPS.test(compact)
  const nif = DNI.test(compact) || NIE.test(compact) || CIF.test(compact)
  return {
    text,
    compact,
    cups,
    nif,
    contractCode,
    name: !cups && !nif && !contractCode && text.length >= 3 && (NAME.test(text) || AGENT_CODE.test(upper)),
  }
}

/** Lower case without accents: how screen titles and names are compared. */
export function foldText(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
}
