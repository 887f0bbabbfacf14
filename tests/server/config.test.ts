import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../server/config'

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
