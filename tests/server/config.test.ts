import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../server/config'
import { KEY_FILE } from '../../server/session/token-cipher'
import { openStores } from '../../server/stores'
import type { SessionUser } from '../../schemas/session-user'

describe('configuration from the environment', () => {
  it('has working defaults', () => {
    const c = loadConfig({})
    expect(c.port).toBe(3000)
    expect(c.env).toBe('development')
    expect(c.upstreamUrl).toBeUndefined()
    expect(c.sessionIdleTimeoutMs).toBe(30 * 60_000)
    expect(c.sessionAbsoluteTimeoutMs).toBe(12 * 3600_000)
    expect(c.sessionCacheMs).toBe(2000)
    expect(c.upstreamConnections).toBe(256)
  })

  it.each([
    [{ PORT: 'tres mil' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ NODE_ENV: 'prod' }, 'NODE_ENV'],
    [{ UPSTREAM_URL: 'ftp://x' }, 'UPSTREAM_URL'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ COMPARADOR_URL: 'http://insecure.example' }, 'COMPARADOR_URL'],
    [{ SESSION_CACHE_MS: '60000' }, 'SESSION_CACHE_MS'],
    [{ UPSTREAM_CONNECTIONS: '0' }, 'UPSTREAM_CONNECTIONS'],
  ])('%o stops the start naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}=`))
  })

  it('reads values and trims the upstream URL', () => {
    const c = loadConfig({ PORT: '8080', UPSTREAM_URL: 'https://api.example.es/', TRUST_PROXY: 'true', ALLOWED_HOSTS: 'a.example, B.example ' })
    expect(c).toMatchObject({ port: 8080, upstreamUrl: 'https://api.example.es', trustProxy: true, allowedHosts: ['a.example', 'b.example'] })
    expect(loadConfig({ SESSION_CACHE_MS: '0', UPSTREAM_CONNECTIONS: '512' })).toMatchObject({ sessionCacheMs: 0, upstreamConnections: 512 })
  })
})

describe('SESSION_ENCRYPTION_KEY', () => {
  const silent = { info: () => undefined, warn: () => undefined, error: () => undefined }
  const user = { Id: 1, UserName: 'ana@portal.test', Email: 'ana@portal.test', Nombre: 'Ana', Permisos: [] } as unknown as SessionUser

  it('is required with REDIS_URL: the start is refused naming it, before anything else runs', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(ConfigError)
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(/SESSION_ENCRYPTION_KEY=.*obligatoria cuando REDIS_URL/)
    const key = randomBytes(32)
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', SESSION_ENCRYPTION_KEY: key.toString('base64') }).sessionEncryptionKey?.export()).toEqual(key)
    expect(loadConfig({}).sessionEncryptionKey).toBeUndefined()

    const main = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { PATH: process.env.PATH, REDIS_URL: 'redis://127.0.0.1:1', DATA_DIR: path.join(os.tmpdir(), 'portal-never-created') },
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(main.status).toBe(1)
    expect(main.stderr).toMatch(/SESSION_ENCRYPTION_KEY/)
  })

  it('refuses a key that is not 32 bytes, without quoting it', () => {
    for (const bad of ['corta', randomBytes(16).toString('base64'), randomBytes(31).toString('hex'), randomBytes(48).toString('base64')]) {
      const attempt = () => loadConfig({ SESSION_ENCRYPTION_KEY: bad })
      expect(attempt).toThrow(ConfigError)
      expect(attempt).toThrow(/SESSION_ENCRYPTION_KEY=.*32 bytes/)
      expect(() => loadConfig({ SESSION_ENCRYPTION_KEY: bad, PORT: 'x' })).toThrow(/PORT=.*; SESSION_ENCRYPTION_KEY=/)
      try {
        attempt()
      } catch (err) {
        expect((err as Error).message).not.toContain(bad)
      }
    }
  })

  it('without REDIS_URL nor a key: generated once into DATA_DIR (mode 0600) and reused on the next start', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-key-'))
    const file = path.join(dir, KEY_FILE)
    try {
      const first = await openStores(loadConfig({ DATA_DIR: dir }), {}, silent)
      const session = await first.sessions.create({ userId: 1, brand: 'verde', token: 'acceso-1', refreshToken: 'refresco-1', tokenExp: 9_999_999_999, user })
      await first.sessions.close()
      await first.menus.close()
      expect(fs.statSync(file).mode & 0o777).toBe(0o600)
      const key = fs.readFileSync(file, 'utf8')
      expect(Buffer.from(key.trim(), 'base64')).toHaveLength(32)

      const second = await openStores(loadConfig({ DATA_DIR: dir }), {}, silent)
      try {
        expect(fs.readFileSync(file, 'utf8')).toBe(key)
        expect(await second.sessions.get(session.id)).toMatchObject({ token: 'acceso-1', refreshToken: 'refresco-1' })
      } finally {
        await second.sessions.close()
        await second.menus.close()
      }
      expect(fs.readdirSync(dir).filter((f) => f.startsWith(KEY_FILE))).toEqual([KEY_FILE])

      // A key given in the environment is used instead, and no file is made.
      const other = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-key-'))
      const given = await openStores(loadConfig({ DATA_DIR: other, SESSION_ENCRYPTION_KEY: randomBytes(32).toString('hex') }), {}, silent)
      await given.sessions.close()
      await given.menus.close()
      expect(fs.existsSync(path.join(other, KEY_FILE))).toBe(false)
      fs.rmSync(other, { recursive: true, force: true })
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses to start on a key file that holds no key, naming the file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-key-'))
    try {
      fs.writeFileSync(path.join(dir, KEY_FILE), 'no es una clave\n', { mode: 0o600 })
      await expect(openStores(loadConfig({ DATA_DIR: dir }), {}, silent)).rejects.toThrow(new RegExp(`${KEY_FILE} no contiene una clave de sesión válida`))
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
