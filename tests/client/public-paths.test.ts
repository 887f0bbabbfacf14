import { describe, expect, it } from 'vitest'
import { isPublicPath } from '../../client/auth/public-paths'
import { safeRedirect } from '../../client/auth/safe-redirect'

describe('public paths (spec §2: ignoring case and a trailing slash)', () => {
  it.each(['/auth/Login', '/auth/login', '/AUTH/LOGIN/', '/auth/recovery', '/auth/Recovery/', '/auth/resetpassword', '/auth/ResetPassword', '/error', '/Error/'])(
    '%s is public',
    (p) => expect(isPublicPath(p)).toBe(true),
  )
  it.each(['/', '/auth', '/auth/Error', '/auth/login/extra', '/soluciones/contratos/listado', '/errors', '/auth/log'])('%s needs a session', (p) =>
    expect(isPublicPath(p)).toBe(false),
  )
})

describe('redirect after sign-in accepts only same-origin relative paths', () => {
  it.each([
    ['/soluciones/contratos/listado', '/soluciones/contratos/listado'],
    ['/usuarios/listado?page=2#top', '/usuarios/listado?page=2#top'],
    ['%2Fsoluciones%2Ffacturas', '/soluciones/facturas'],
  ])('%s → %s', (input, out) => expect(safeRedirect(input)).toBe(out))

  it.each([
    null,
    '',
    '//evil.example',
    '//evil.example/path',
    'https://evil.example',
    'http://evil.example/x',
    'javascript:alert(1)',
    '/\\evil.example',
    '\\\\evil.example',
    '%2F%2Fevil.example',
    '%252F%252Fevil.example',
    '/%5Cevil.example',
    '/%2F%2Fevil.example',
    'evil.example',
    '/\tevil',
    ' /x',
    '/auth/login',
  ])('%s → /', (input) => expect(safeRedirect(input)).toBe('/'))
})
