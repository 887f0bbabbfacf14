/** Valid Spanish identifiers for test data, made with the real check algorithms. */
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE'

export function randomDigits(n: number): string {
  let s = ''
  for (let i = 0; i < n; i++) s += Math.floor(Math.random() * 10)
  return s
}

export function validDni(): string {
  const n = 10_000_000 + Math.floor(Math.random() * 89_999_999)
  return `${n}${LETTERS[n % 23]}`
}

export function validCups(distributor = '0021'): string {
  const digits = distributor + randomDigits(12)
  const r = Number(BigInt(digits) % 529n)
  return `ES${digits}${LETTERS[Math.floor(r / 23)]}${LETTERS[r % 23]}`
}
