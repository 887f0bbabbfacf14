import Type from 'typebox'
import { Compile } from 'typebox/compile'
import type { KeyObject } from 'node:crypto'
import path from 'node:path'
import { KEY_HINT, parseTokenKey } from './session/token-cipher'

/**
 * Every environment variable the BFF reads, with its default. The README's table is written
 * from this list; keep them together.
 */
const EnvSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], { default: 'development' }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  /** Base URL of the business API; unset means the embedded reference API. */
  UPSTREAM_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  UPSTREAM_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 300000, default: 15000 }),
  /** Keep-alive connections to the upstream at most: below the concurrent requests, calls queue for one. */
  UPSTREAM_CONNECTIONS: Type.Integer({ minimum: 1, maximum: 10000, default: 256 }),
  /** Port of the embedded reference API when UPSTREAM_URL is unset (0 = any free port). */
  REFERENCE_API_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 0 }),
  COMPARADOR_URL: Type.String({ pattern: '^https://[^\\s]+$', default: 'https://comparador.energiaverde.es' }),
  SESSION_IDLE_TIMEOUT_S: Type.Integer({ minimum: 60, default: 1800 }),
  SESSION_ABSOLUTE_TIMEOUT_S: Type.Integer({ minimum: 300, default: 43200 }),
  /** How long a session read from the store is reused from memory (0 = every request reads the store). */
  SESSION_CACHE_MS: Type.Integer({ minimum: 0, maximum: 10000, default: 2000 }),
  /** Distinct users whose browser fails to render a published screen version before everyone falls back to the last good one. */
  SCREEN_FAILURE_THRESHOLD: Type.Integer({ minimum: 1, maximum: 1000, default: 3 }),
  /** Failed sign-ins (and recovery requests) of one account from one address, and from one address, within the window before they are refused. */
  SIGNIN_MAX_FAILURES_PER_ACCOUNT: Type.Integer({ minimum: 1, maximum: 1000, default: 5 }),
  SIGNIN_MAX_FAILURES_PER_IP: Type.Integer({ minimum: 1, maximum: 100000, default: 20 }),
  SIGNIN_THROTTLE_WINDOW_S: Type.Integer({ minimum: 10, maximum: 86400, default: 900 }),
  /** Failures of one account from all addresses within the window after which each further one imposes a doubling wait, starting at SIGNIN_ACCOUNT_BACKOFF_S. */
  SIGNIN_ACCOUNT_BACKOFF_AFTER: Type.Integer({ minimum: 1, maximum: 100000, default: 10 }),
  SIGNIN_ACCOUNT_BACKOFF_S: Type.Integer({ minimum: 1, maximum: 3600, default: 2 }),
  /** Self sign-up (POST /bff/auth/signup, the «Crear cuenta» link): new accounts wait for a GESTORACCESS user of their brand. */
  SIGNUP_ENABLED: Type.Boolean({ default: false }),
  /** Extra endpoint catalogue files (comma separated JSON paths) for a real upstream with more calls. */
  CATALOGUE_FILES: Type.String({ default: '' }),
  /** Largest request body forwarded to /api/* (uploads), in megabytes. */
  API_BODY_LIMIT_MB: Type.Integer({ minimum: 1, maximum: 2048, default: 100 }),
  /** Honour X-Forwarded-Host/-Proto from a TLS-terminating proxy. */
  TRUST_PROXY: Type.Boolean({ default: false }),
  /** Extra host names served in production besides portal.<Domain> of each brand (comma separated). */
  ALLOWED_HOSTS: Type.String({ default: '' }),
  BUILD_ID: Type.Optional(Type.String({ minLength: 1 })),
  /** Where the built client lives. */
  CLIENT_DIST: Type.String({ default: './dist/client' }),
  /** Where the brand folders live. */
  BRANDS_DIR: Type.String({ default: './brands' }),
  /** Shared Redis for sessions and menus (replicas behind a load balancer); unset keeps them in SQLite under DATA_DIR. */
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://[^\\s]+$' })),
  /** 32 bytes (base64 or hex) encrypting upstream tokens at rest; required with REDIS_URL, else generated into DATA_DIR. */
  SESSION_ENCRYPTION_KEY: Type.Optional(Type.String()),
  /** When set, GET /metrics needs `Authorization: Bearer <token>`; unset, production serves it to loopback only. */
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16, pattern: '^\\S+$' })),
  /** Overload: requests get 503 when the event loop lags, or memory runs, above these (0 = not checked). */
  MAX_EVENT_LOOP_DELAY_MS: Type.Integer({ minimum: 0, maximum: 60000, default: 1000 }),
  /** Unset: 90 % of V8's heap limit. */
  MAX_HEAP_USED_MB: Type.Optional(Type.Integer({ minimum: 0, maximum: 1048576 })),
  MAX_RSS_MB: Type.Integer({ minimum: 0, maximum: 1048576, default: 0 }),
  /** Longest pause of the open connections' reading while a burst of new ones is accepted (ops/accept-bursts); 0 = never paused. */
  ACCEPT_BURST_MAX_PAUSE_MS: Type.Integer({ minimum: 0, maximum: 10000, default: 100 }),
  /** How long the audit of changes keeps an entry, in days (SQLite and Redis streams alike); older ones are dropped by the store. */
  AUDIT_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 730 }),
  /** How long a decided or expired approval request is kept, in days after its decision; pending ones stay until decided or expired (48 h). */
  APPROVAL_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 90 }),
  /** OTLP/HTTP collector base URL; set, traces go to <url>/v1/traces. */
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
})

export type Env = Type.Static<typeof EnvSchema>

export interface Config {
  env: 'development' | 'production' | 'test'
  production: boolean
  host: string
  port: number
  dataDir: string
  logLevel: string
  upstreamUrl: string | undefined
  upstreamTimeoutMs: number
  upstreamConnections: number
  referenceApiPort: number
  comparadorUrl: string
  sessionIdleTimeoutMs: number
  sessionAbsoluteTimeoutMs: number
  sessionCacheMs: number
  screenFailureThreshold: number
  signInThrottle: { maxPerAccountIp: number; maxPerIp: number; accountBackoffAfter: number; accountBackoffMs: number; windowMs: number }
  /** Self sign-up offered (SIGNUP_ENABLED). */
  signupEnabled: boolean
  /** Operator catalogue files added to the shipped one. */
  catalogueFiles: string[]
  apiBodyLimitBytes: number
  trustProxy: boolean
  allowedHosts: string[]
  buildId: string | undefined
  clientDist: string
  brandsDir: string
  redisUrl: string | undefined
  /** Unset without REDIS_URL: the stores use the key generated into DATA_DIR. */
  sessionEncryptionKey: KeyObject | undefined
  metricsToken: string | undefined
  overload: { maxEventLoopDelayMs: number; maxHeapUsedBytes: number | undefined; maxRssBytes: number }
  /** 0: a burst of new connections pauses nobody. */
  acceptBurstMaxPauseMs: number
  otelEndpoint: string | undefined
  auditRetentionMs: number
  approvalRetentionMs: number
}

const validator = Compile(EnvSchema)
const numeric = new Set([
  'PORT',
  'UPSTREAM_TIMEOUT_MS',
  'UPSTREAM_CONNECTIONS',
  'REFERENCE_API_PORT',
  'SESSION_IDLE_TIMEOUT_S',
  'SESSION_ABSOLUTE_TIMEOUT_S',
  'SESSION_CACHE_MS',
  'SCREEN_FAILURE_THRESHOLD',
  'SIGNIN_MAX_FAILURES_PER_ACCOUNT',
  'SIGNIN_MAX_FAILURES_PER_IP',
  'SIGNIN_THROTTLE_WINDOW_S',
  'SIGNIN_ACCOUNT_BACKOFF_AFTER',
  'SIGNIN_ACCOUNT_BACKOFF_S',
  'API_BODY_LIMIT_MB',
  'MAX_EVENT_LOOP_DELAY_MS',
  'MAX_HEAP_USED_MB',
  'MAX_RSS_MB',
  'ACCEPT_BURST_MAX_PAUSE_MS',
  'AUDIT_RETENTION_DAYS',
  'APPROVAL_RETENTION_DAYS',
])
const booleans = new Set(['TRUST_PROXY', 'SIGNUP_ENABLED'])

export class ConfigError extends Error {}

/** Reads the environment into a typed config; a wrong value throws naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {}
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = env[key]
    if (value === undefined || value === '') continue
    if (numeric.has(key)) raw[key] = /^-?\d+$/.test(value.trim()) ? Number(value) : value
    else if (booleans.has(key)) raw[key] = value === 'true' ? true : value === 'false' ? false : value
    else raw[key] = value
  }
  const withDefaults = validator.Default(raw) as Record<string, unknown>
  const errors = validator.Errors(withDefaults)
  const key = sessionEncryptionKey(raw.SESSION_ENCRYPTION_KEY as string | undefined, raw.REDIS_URL !== undefined)
  if (errors.length > 0 || typeof key === 'string') {
    const names = [...new Set(errors.map((e) => e.instancePath.replace(/^\//, '').split('/')[0]).filter(Boolean))] as string[]
    const messages = names.map((name) => `${name}=${JSON.stringify(env[name] ?? '')}: ${expectation(name)}`)
    if (typeof key === 'string') messages.push(key)
    throw new ConfigError(`Configuración no válida: ${messages.join('; ')}`)
  }
  const e = withDefaults as Env
  return {
    env: e.NODE_ENV,
    production: e.NODE_ENV === 'production',
    host: e.HOST,
    port: e.PORT,
    dataDir: path.resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    upstreamUrl: e.UPSTREAM_URL?.replace(/\/+$/, ''),
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    upstreamConnections: e.UPSTREAM_CONNECTIONS,
    referenceApiPort: e.REFERENCE_API_PORT,
    comparadorUrl: e.COMPARADOR_URL.replace(/\/+$/, ''),
    sessionIdleTimeoutMs: e.SESSION_IDLE_TIMEOUT_S * 1000,
    sessionAbsoluteTimeoutMs: e.SESSION_ABSOLUTE_TIMEOUT_S * 1000,
    sessionCacheMs: e.SESSION_CACHE_MS,
    screenFailureThreshold: e.SCREEN_FAILURE_THRESHOLD,
    signInThrottle: {
      maxPerAccountIp: e.SIGNIN_MAX_FAILURES_PER_ACCOUNT,
      maxPerIp: e.SIGNIN_MAX_FAILURES_PER_IP,
      accountBackoffAfter: e.SIGNIN_ACCOUNT_BACKOFF_AFTER,
      accountBackoffMs: e.SIGNIN_ACCOUNT_BACKOFF_S * 1000,
      windowMs: e.SIGNIN_THROTTLE_WINDOW_S * 1000,
    },
    signupEnabled: e.SIGNUP_ENABLED,
    catalogueFiles: e.CATALOGUE_FILES.split(',').map((f) => f.trim()).filter(Boolean).map((f) => path.resolve(f)),
    apiBodyLimitBytes: e.API_BODY_LIMIT_MB * 1024 * 1024,
    trustProxy: e.TRUST_PROXY,
    allowedHosts: e.ALLOWED_HOSTS.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    buildId: e.BUILD_ID,
    clientDist: path.resolve(e.CLIENT_DIST),
    brandsDir: path.resolve(e.BRANDS_DIR),
    redisUrl: e.REDIS_URL,
    sessionEncryptionKey: key,
    metricsToken: e.METRICS_TOKEN,
    overload: {
      maxEventLoopDelayMs: e.MAX_EVENT_LOOP_DELAY_MS,
      maxHeapUsedBytes: e.MAX_HEAP_USED_MB === undefined ? undefined : e.MAX_HEAP_USED_MB * 1024 * 1024,
      maxRssBytes: e.MAX_RSS_MB * 1024 * 1024,
    },
    acceptBurstMaxPauseMs: e.ACCEPT_BURST_MAX_PAUSE_MS,
    otelEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, ''),
    auditRetentionMs: e.AUDIT_RETENTION_DAYS * 24 * 3600_000,
    approvalRetentionMs: e.APPROVAL_RETENTION_DAYS * 24 * 3600_000,
  }
}

/**
 * SESSION_ENCRYPTION_KEY as a key, or the Spanish sentence refusing it. The value is a secret:
 * the message never quotes it. With REDIS_URL it is required, as every replica must decrypt
 * what the others stored.
 */
function sessionEncryptionKey(value: string | undefined, shared: boolean): KeyObject | undefined | string {
  if (value === undefined) {
    return shared ? `SESSION_ENCRYPTION_KEY="": es obligatoria cuando REDIS_URL está definida, y la misma en todas las réplicas (${KEY_HINT})` : undefined
  }
  return parseTokenKey(value) ?? `SESSION_ENCRYPTION_KEY=(no se muestra): debe ser una clave de 32 bytes en base64 (44 caracteres) o en hexadecimal (64 caracteres); ${KEY_HINT}`
}

/** A Spanish sentence saying what a variable must hold. */
function expectation(name: string): string {
  const schema = (EnvSchema.properties as unknown as Record<string, Record<string, unknown>>)[name] ?? {}
  if (Array.isArray(schema.enum)) return `debe ser uno de: ${(schema.enum as string[]).join(', ')}`
  if (Array.isArray(schema.anyOf)) return `debe ser uno de: ${(schema.anyOf as { const: string }[]).map((s) => s.const).join(', ')}`
  if (schema.type === 'integer') return `debe ser un número entero entre ${schema.minimum ?? '-∞'} y ${schema.maximum ?? '∞'}`
  if (schema.type === 'boolean') return 'debe ser true o false'
  if (typeof schema.minLength === 'number' && schema.minLength > 1) return `debe tener al menos ${schema.minLength} caracteres${schema.pattern === '^\\S+$' ? ', sin espacios' : ''}`
  if (schema.pattern) return `formato no válido (se espera ${schema.pattern})`
  return 'valor no válido'
}

/** The variables, their defaults and meaning, for the README and `--help`. */
export const configVariables = EnvSchema.properties
