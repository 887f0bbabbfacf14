import { expect, test } from '@playwright/test'
import fs from 'node:fs'
import { ADMIN, AGENTE, DATA_DIR } from './support'

/**
 * Runs after every other e2e suite (a project that depends on theirs) and reads what the portals
 * logged during the whole run: no token, cookie, password, IBAN or full NIF may be in it.
 */
const LOG_FILES = [`${DATA_DIR}/portal.log`, `${DATA_DIR}-menus/portal.log`]

const SECRETS: [what: string, pattern: RegExp][] = [
  ['a JWT', /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/],
  ['a bearer token', /Bearer\s+[A-Za-z0-9._-]{16,}/i],
  ['a session cookie', /portal_session=[A-Za-z0-9_-]{20,}/],
  ['a demo password', new RegExp([ADMIN.password, AGENTE.password].map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'))],
  ['a password field', /"(password|Password|newPassword|NewPassword|OldPassword)"\s*:\s*"(?!\[oculto\])[^"]+"/],
  ['an IBAN', /\bES\d{2}\s?(\d{4}\s?){4}\d{4}\b/],
  ['a DNI/NIF', /\b\d{8}[TRWAGMYFPDXBNJZSQVHLCKE]\b/],
  ['a NIE', /\b[XYZ]\d{7}[TRWAGMYFPDXBNJZSQVHLCKE]\b/],
  ['a CIF', /\b[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]\b/],
  ['a CUPS', /\bES\d{16}[A-Z]{2}(?:\d[FPCRXYZ])?\b/],
]

test('the run’s logs hold no token, cookie, password, IBAN or full NIF', () => {
  const files = LOG_FILES.filter((f) => fs.existsSync(f))
  expect(files.length, 'the portals wrote their logs').toBeGreaterThan(0)
  const lines = files.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean))
  // a real run, not an empty file: sign-ins, proxied calls and saves were logged
  expect(lines.length).toBeGreaterThan(200)
  expect(lines.some((l) => l.includes('"event":"login"'))).toBe(true)
  const leaks: string[] = []
  for (const line of lines) {
    for (const [what, pattern] of SECRETS) {
      const hit = pattern.exec(line)
      if (hit) leaks.push(`${what}: …${line.slice(Math.max(0, hit.index - 60), hit.index + 40)}…`)
    }
  }
  expect(leaks.slice(0, 20), leaks.slice(0, 20).join('\n')).toEqual([])
  // every request line carries its request id
  const requests = lines.filter((l) => l.includes('"msg":"request completed"'))
  expect(requests.length).toBeGreaterThan(100)
  expect(requests.filter((l) => !/"reqId":"[0-9a-f-]{36}"/.test(l))).toEqual([])
  // a logged URL holds no e-mail address or phone number whole either
  const contacts = requests.filter((l) => /"url":"[^"]*(?:%40|@)[^"]*"/.test(l) || /"url":"[^"]*[=/][6789]\d{8}(?:[&"])/.test(l))
  expect(contacts.slice(0, 10)).toEqual([])
})

test('the product called nothing the endpoint catalogue lacks', () => {
  // The proxy logs every call it refuses for not matching the catalogue (call, parameter, body).
  // The end-to-end suites only do what a user does, so any such line is a gap in the catalogue.
  const lines = LOG_FILES.filter((f) => fs.existsSync(f)).flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean))
  const refused = lines.filter((l) => l.includes('"event":"api_refused"'))
  expect(refused.slice(0, 20), refused.slice(0, 20).join('\n')).toEqual([])
})
