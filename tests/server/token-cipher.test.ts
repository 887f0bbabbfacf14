import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { openTokens, parseTokenKey, sealToken, TokenCipher } from '../../server/session/token-cipher'

const HASH = 'a'.repeat(64)

describe('TokenCipher (AES-256-GCM)', () => {
  const cipher = TokenCipher.random()

  it('round-trips, with a fresh IV per value and the format named by its prefix', () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjE3MDAwMDA5MDB9.ñ-firma'
    const one = cipher.encrypt(token, 'ctx')
    const two = cipher.encrypt(token, 'ctx')
    expect(one).toMatch(/^v1\.[A-Za-z0-9_-]+$/)
    expect(one).not.toBe(two)
    expect(one).not.toContain('eyJ')
    expect(cipher.decrypt(one, 'ctx')).toBe(token)
    expect(cipher.decrypt(two, 'ctx')).toBe(token)
    expect(cipher.decrypt(cipher.encrypt('', 'ctx'), 'ctx')).toBe('')
  })

  it('refuses another key, another context, an altered or cut value, and anything not in its format', () => {
    const sealed = cipher.encrypt('secreto', 'ctx')
    expect(TokenCipher.random().decrypt(sealed, 'ctx')).toBeNull()
    expect(cipher.decrypt(sealed, 'otro')).toBeNull()
    const body = Buffer.from(sealed.slice(3), 'base64url')
    for (const i of [0, 12, 28, body.length - 1]) {
      const altered = Buffer.from(body)
      altered[i]! ^= 1
      expect(cipher.decrypt(`v1.${altered.toString('base64url')}`, 'ctx'), `byte ${i}`).toBeNull()
    }
    expect(cipher.decrypt(sealed.slice(0, -4), 'ctx')).toBeNull()
    expect(cipher.decrypt('v1.', 'ctx')).toBeNull()
    expect(cipher.decrypt('v2.' + sealed.slice(3), 'ctx')).toBeNull()
    expect(cipher.decrypt('eyJhbGciOiJIUzI1NiJ9.e30.firma', 'ctx')).toBeNull()
  })

  it('binds a session’s tokens to it and to their field', () => {
    const token = sealToken(cipher, HASH, 'token', 'acceso')
    const refresh = sealToken(cipher, HASH, 'refreshToken', 'refresco')
    expect(openTokens(cipher, HASH, { token, refreshToken: refresh })).toEqual({ token: 'acceso', refreshToken: 'refresco' })
    expect(openTokens(cipher, HASH, { token, refreshToken: null })).toEqual({ token: 'acceso', refreshToken: null })
    expect(openTokens(cipher, HASH, { token: refresh, refreshToken: token })).toBeNull()
    expect(openTokens(cipher, 'b'.repeat(64), { token, refreshToken: null })).toBeNull()
    expect(openTokens(cipher, HASH, { token, refreshToken: 'refresco' })).toBeNull()
    expect(openTokens(cipher, HASH, { token: undefined, refreshToken: null })).toBeNull()
  })
})

describe('parseTokenKey', () => {
  const bytes = randomBytes(32)

  it('takes 32 bytes as hex, base64 or base64url, all the same key', () => {
    const forms = [bytes.toString('hex'), bytes.toString('hex').toUpperCase(), bytes.toString('base64'), bytes.toString('base64url'), ` ${bytes.toString('base64')}\n`]
    const sealed = new TokenCipher(parseTokenKey(forms[0]!)!).encrypt('x', 'c')
    for (const form of forms) expect(new TokenCipher(parseTokenKey(form)!).decrypt(sealed, 'c'), form).toBe('x')
  })

  it('refuses any other length or alphabet', () => {
    for (const bad of ['', 'corta', randomBytes(16).toString('base64'), randomBytes(31).toString('hex'), randomBytes(33).toString('base64'), randomBytes(48).toString('base64'), 'z'.repeat(64), `${bytes.toString('base64').slice(0, -2)}!=`]) {
      expect(parseTokenKey(bad), bad).toBeNull()
    }
  })
})
