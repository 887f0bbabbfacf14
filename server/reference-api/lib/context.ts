import type Database from 'better-sqlite3'

export interface Marca {
  id: number
  dominio: string
  nombre: string
}

export interface Caller {
  userId: number
  /** Shared between the requests of one user while the database is unchanged: read only. */
  permissions: ReadonlySet<string>
  /** The admin viewing the portal as this user (a read-only view-as token), if any. */
  actorId?: number
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The brand named by X-Brand-Domain. */
    marca: Marca
    /** The signed-in caller (absent on public auth calls). */
    caller: Caller | null
  }
}

/** What every route module of the reference API receives. */
export interface ApiContext {
  db: Database.Database
  now: () => number
  /** The top-level brands folder (brand.json, logos), for brand-aware documents. */
  brandsDir: string
  /** Where contract documents are stored (`DATA_DIR/documentos`); created on demand. */
  documentsDir: string
}
