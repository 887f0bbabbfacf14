/**
 * Spanish identifiers: NIF/NIE/CIF, CUPS and IBAN, validated by their real check algorithms
 * (see the domain notes) and generated valid for the demo data.
 */

export interface Verdict {
  valid: boolean
  /** The identifier normalised: upper case, no spaces or dashes. */
  normalized: string
  /** Spanish reason when invalid. */
  reason?: string
  /** What the identifier turned out to be (DNI, NIE, CIF…). */
  kind?: string
}

const CONTROL_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE'
const CIF_LETTERS = 'JABCDEFGHI'
const CIF_FIRST = 'ABCDEFGHJNPQRSUVW'
const CIF_DIGIT_ONLY = 'ABEH'
const CIF_LETTER_ONLY = 'PQRSNW'

export function normalizeId(value: string): string {
  return value.replace(/[\s.-]/g, '').toUpperCase()
}

function invalid(normalized: string, reason: string, kind?: string): Verdict {
  return kind ? { valid: false, normalized, reason, kind } : { valid: false, normalized, reason }
}

// ── NIF / NIE / CIF ─────────────────────────────────────────────────────────

export function dniLetter(number: number): string {
  return CONTROL_LETTERS[number % 23]!
}

export function cifControl(digits7: string): { digit: string; letter: string } {
  let total = 0
  for (let i = 0; i < 7; i++) {
    const d = Number(digits7[i])
    if (i % 2 === 1) total += d
    else {
      const doubled = d * 2
      total += Math.floor(doubled / 10) + (doubled % 10)
    }
  }
  const c = (10 - (total % 10)) % 10
  return { digit: String(c), letter: CIF_LETTERS[c]! }
}

export function validateNif(input: string): Verdict {
  const n = normalizeId(input)
  if (n.length === 0) return invalid(n, 'El NIF está vacío.')
  if (/^\d{8}[A-Z]$/.test(n)) {
    const expected = dniLetter(Number(n.slice(0, 8)))
    return n[8] === expected
      ? { valid: true, normalized: n, kind: 'DNI' }
      : invalid(n, `La letra del DNI no es correcta (debería ser ${expected}).`, 'DNI')
  }
  if (/^[XYZ]\d{7}[A-Z]$/.test(n)) {
    const number = Number(String('XYZ'.indexOf(n[0]!)) + n.slice(1, 8))
    const expected = dniLetter(number)
    return n[8] === expected
      ? { valid: true, normalized: n, kind: 'NIE' }
      : invalid(n, `La letra del NIE no es correcta (debería ser ${expected}).`, 'NIE')
  }
  if (/^[A-Z]\d{7}[0-9A-J]$/.test(n)) {
    const first = n[0]!
    if (!CIF_FIRST.includes(first)) return invalid(n, `La letra inicial «${first}» no corresponde a ningún tipo de entidad.`, 'CIF')
    const { digit, letter } = cifControl(n.slice(1, 8))
    const control = n[8]!
    if (CIF_DIGIT_ONLY.includes(first)) {
      return control === digit
        ? { valid: true, normalized: n, kind: 'CIF' }
        : invalid(n, `El dígito de control del CIF no es correcto (debería ser ${digit}).`, 'CIF')
    }
    if (CIF_LETTER_ONLY.includes(first)) {
      return control === letter
        ? { valid: true, normalized: n, kind: 'CIF' }
        : invalid(n, `El carácter de control del CIF no es correcto (debería ser la letra ${letter}).`, 'CIF')
    }
    return control === digit || control === letter
      ? { valid: true, normalized: n, kind: 'CIF' }
      : invalid(n, `El control del CIF no es correcto (debería ser ${digit} o ${letter}).`, 'CIF')
  }
  if (/^\d{1,7}[A-Z]$/.test(n)) return invalid(n, 'El DNI debe tener 8 dígitos y una letra.', 'DNI')
  return invalid(n, 'El formato no corresponde a un DNI, NIE ni CIF.')
}

export function makeDni(number: number): string {
  const digits = String(number).padStart(8, '0')
  return digits + dniLetter(number)
}

export function makeCif(first: string, digits7: string): string {
  const { digit, letter } = cifControl(digits7)
  const control = CIF_LETTER_ONLY.includes(first) ? letter : CIF_DIGIT_ONLY.includes(first) ? digit : digit
  return first + digits7 + control
}

// ── CUPS ─────────────────────────────────────────────────────────────────────

const CUPS_BORDER = 'FPRCXYZ'

/** Two check letters of a CUPS from its 16 digits (BigInt: the number exceeds 2^53). */
export function cupsLetters(digits16: string): string {
  const r = Number(BigInt(digits16) % 529n)
  return CONTROL_LETTERS[Math.floor(r / 23)]! + CONTROL_LETTERS[r % 23]!
}

export function validateCups(input: string): Verdict {
  const n = normalizeId(input)
  if (n.length === 0) return invalid(n, 'El CUPS está vacío.')
  if (!n.startsWith('ES')) return invalid(n, 'El CUPS debe empezar por ES.')
  if (n.length !== 20 && n.length !== 22) return invalid(n, `El CUPS debe tener 20 o 22 caracteres (tiene ${n.length}).`)
  const digits = n.slice(2, 18)
  if (!/^\d{16}$/.test(digits)) return invalid(n, 'Tras «ES» el CUPS debe tener 16 dígitos.')
  const letters = n.slice(18, 20)
  if (!/^[A-Z]{2}$/.test(letters)) return invalid(n, 'El CUPS debe terminar en dos letras de control.')
  const expected = cupsLetters(digits)
  if (letters !== expected) return invalid(n, `Las letras de control del CUPS no son correctas (deberían ser ${expected}).`)
  if (n.length === 22) {
    const suffix = n.slice(20)
    if (!/^\d[A-Z]$/.test(suffix) || !CUPS_BORDER.includes(suffix[1]!)) {
      return invalid(n, 'El sufijo de punto frontera debe ser un dígito y una de las letras F, P, R, C, X, Y o Z.')
    }
  }
  return { valid: true, normalized: n, kind: n.length === 22 ? 'CUPS con punto frontera' : 'CUPS' }
}

export function makeCups(distributor: string, digits12: string, border = ''): string {
  const digits = distributor + digits12
  return `ES${digits}${cupsLetters(digits)}${border}`
}

// ── IBAN (Spain) ────────────────────────────────────────────────────────────

const CCC_WEIGHTS = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]

function cccDigit(ten: string): string {
  let sum = 0
  for (let i = 0; i < 10; i++) sum += Number(ten[i]) * CCC_WEIGHTS[i]!
  const d = 11 - (sum % 11)
  return String(d === 11 ? 0 : d === 10 ? 1 : d)
}

/** The two national check digits of a CCC (bank 4 + branch 4, account 10). */
export function cccCheckDigits(bank: string, branch: string, account: string): string {
  return cccDigit(`00${bank}${branch}`) + cccDigit(account)
}

function mod97(numeric: string): number {
  let rest = 0
  for (let i = 0; i < numeric.length; i += 7) rest = Number(String(rest) + numeric.slice(i, i + 7)) % 97
  return rest
}

function ibanNumeric(rearranged: string): string {
  return rearranged.replace(/[A-Z]/g, (ch) => String(ch.charCodeAt(0) - 55))
}

export function validateIban(input: string): Verdict {
  const n = normalizeId(input)
  if (n.length === 0) return invalid(n, 'El IBAN está vacío.')
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(n)) return invalid(n, 'El IBAN debe empezar por el código de país y dos dígitos de control.')
  if (!n.startsWith('ES')) return invalid(n, 'Solo se admiten cuentas españolas (IBAN que empiece por ES).')
  if (n.length !== 24) return invalid(n, `Un IBAN español tiene 24 caracteres (tiene ${n.length}).`)
  if (!/^ES\d{22}$/.test(n)) return invalid(n, 'Tras «ES» el IBAN español solo puede contener dígitos.')
  if (mod97(ibanNumeric(n.slice(4) + n.slice(0, 4))) !== 1) return invalid(n, 'Los dígitos de control del IBAN no son correctos.')
  const bank = n.slice(4, 8)
  const branch = n.slice(8, 12)
  const dc = n.slice(12, 14)
  const account = n.slice(14)
  const expected = cccCheckDigits(bank, branch, account)
  if (dc !== expected) return invalid(n, `Los dígitos de control de la cuenta no son correctos (deberían ser ${expected}).`)
  return { valid: true, normalized: n, kind: 'IBAN' }
}

export function makeIban(bank: string, branch: string, account: string): string {
  const bban = bank + branch + cccCheckDigits(bank, branch, account) + account
  const check = 98 - mod97(ibanNumeric(`${bban}ES00`))
  return `ES${String(check).padStart(2, '0')}${bban}`
}

/** The IBAN in groups of four, as printed on documents. */
export function formatIban(iban: string): string {
  return iban.replace(/(.{4})/g, '$1 ').trim()
}
