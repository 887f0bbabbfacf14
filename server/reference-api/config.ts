import Type from 'typebox'
import { Compile } from 'typebox/compile'
import path from 'node:path'

const Env = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], { default: 'development' }),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  ACCESS_TOKEN_TTL_S: Type.Integer({ minimum: 10, maximum: 86400, default: 900 }),
  REFRESH_TOKEN_TTL_S: Type.Integer({ minimum: 60, maximum: 2592000, default: 43200 }),
  /** HS256 secret; when unset one is generated and kept in DATA_DIR. */
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  API_HOST: Type.String({ default: '127.0.0.1' }),
  API_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 4000 }),
  LOG_LEVEL: Type.String({ default: 'info' }),
  BRANDS_DIR: Type.String({ default: './brands' }),
  /** Contracts per brand of a newly seeded database: the demo's 650, or more to measure at scale. */
  SEED_CONTRACTS: Type.Integer({ minimum: 650, maximum: 1_000_000, default: 650 }),
  /** Faults on purpose, tests only (ignored in production): `GET /api/contract/id=500;POST /api/contract/insert=503:2000`. */
  REFERENCE_API_FAULTS: Type.Optional(Type.String()),
})

export interface ReferenceApiConfig {
  production: boolean
  dataDir: string
  accessTokenTtlS: number
  refreshTokenTtlS: number
  jwtSecret: string | undefined
  host: string
  port: number
  logLevel: string
  brandsDir: string
  /** Uploaded contract documents: `DATA_DIR/documentos`. */
  documentsDir: string
  /** REFERENCE_API_FAULTS (tests only; never applied in production). */
  faults: string | undefined
  /** SEED_CONTRACTS: contracts per brand when the database is first seeded. */
  seedContracts: number
}

const check = Compile(Env)
const NUMERIC = new Set(['ACCESS_TOKEN_TTL_S', 'REFRESH_TOKEN_TTL_S', 'API_PORT', 'SEED_CONTRACTS'])

/** The reference API's own configuration, from the same environment as the BFF. */
export function loadReferenceApiConfig(env: Record<string, string | undefined> = process.env): ReferenceApiConfig {
  const raw: Record<string, unknown> = {}
  for (const key of Object.keys(Env.properties)) {
    const v = env[key]
    if (v === undefined || v === '') continue
    raw[key] = NUMERIC.has(key) && /^\d+$/.test(v) ? Number(v) : v
  }
  const e = check.Default(raw) as Type.Static<typeof Env>
  const errors = check.Errors(e)
  if (errors.length > 0) {
    const names = [...new Set(errors.map((x) => x.instancePath.slice(1).split('/')[0]).filter(Boolean))]
    throw new Error(`Configuración de la API de referencia no válida: ${names.map((n) => `${n}=${JSON.stringify(env[n!] ?? '')}`).join(', ')}`)
  }
  return {
    production: e.NODE_ENV === 'production',
    dataDir: path.resolve(e.DATA_DIR),
    accessTokenTtlS: e.ACCESS_TOKEN_TTL_S,
    refreshTokenTtlS: e.REFRESH_TOKEN_TTL_S,
    jwtSecret: e.JWT_SECRET,
    host: e.API_HOST,
    port: e.API_PORT,
    logLevel: e.LOG_LEVEL,
    brandsDir: path.resolve(e.BRANDS_DIR),
    documentsDir: path.join(path.resolve(e.DATA_DIR), 'documentos'),
    faults: e.REFERENCE_API_FAULTS,
    seedContracts: e.SEED_CONTRACTS,
  }
}
