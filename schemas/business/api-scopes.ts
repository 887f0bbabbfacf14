/**
 * Scopes of API keys: named groups of public API v1 calls. Declared here once, as data; each
 * public call of the catalogue (schemas/catalogue/public-api.json) names the scope it needs in
 * `scope`, the catalogue loader refuses a name not declared here, and the reference API refuses
 * a key that lacks the scope of the call (403). A public call without `scope` (the catalogue of
 * the API, `me`) only needs a valid key.
 */

export type ApiScopeKind = 'lectura' | 'escritura'

export interface ApiScopeDef {
  /** `area:acción`, e.g. `contratos:lectura`. */
  Scope: string
  Nombre: string
  Descripcion: string
  Tipo: ApiScopeKind
}

export const API_SCOPES: readonly ApiScopeDef[] = [
  { Scope: 'contratos:lectura', Nombre: 'Contratos (lectura)', Descripcion: 'Listar contratos y leer un contrato.', Tipo: 'lectura' },
  { Scope: 'facturas:lectura', Nombre: 'Facturas (lectura)', Descripcion: 'Leer las facturas de un contrato.', Tipo: 'lectura' },
  { Scope: 'sips:lectura', Nombre: 'SIPS (lectura)', Descripcion: 'Consultar el SIPS de un punto de suministro.', Tipo: 'lectura' },
  { Scope: 'precios:lectura', Nombre: 'Precios (lectura)', Descripcion: 'Leer los precios del mercado diario de OMIE.', Tipo: 'lectura' },
]

export const API_SCOPE_PATTERN = '^[a-z]+:[a-z]+$'

const NAMES = new Set(API_SCOPES.map((s) => s.Scope))

export function isApiScope(name: string): boolean {
  return NAMES.has(name)
}

/** What a key gets when generated without a choice: the read scopes only. */
export function defaultApiScopes(): string[] {
  return API_SCOPES.filter((s) => s.Tipo === 'lectura').map((s) => s.Scope)
}

/** Every scope, in declaration order (keys made before scopes existed hold them all). */
export function allApiScopes(): string[] {
  return API_SCOPES.map((s) => s.Scope)
}
