import Type from 'typebox'
import { CLOSED, Day, Instant, Nullable } from './common'

/**
 * Access management (spec §7 Users, Groups, Permissions, API users, API keys, Preferences):
 * users are global, their agent link is per brand.
 */

export const PermissionRef = Type.Object({ Id: Type.Integer(), Nombre: Type.String(), NombreNormalizado: Type.String() }, CLOSED)
export type PermissionRef = Type.Static<typeof PermissionRef>
export const GroupRef = Type.Object({ Id: Type.Integer(), Nombre: Type.String() }, CLOSED)
export type GroupRef = Type.Static<typeof GroupRef>
export const AgentRef = Type.Object({ Id: Type.Integer(), Codigo: Type.String(), Nombre: Type.String() }, CLOSED)
export type AgentRef = Type.Static<typeof AgentRef>
/** An agent link in some brand. */
export const BrandAgentRef = Type.Object({ ...AgentRef.properties, MarcaId: Type.Integer(), MarcaDominio: Type.String(), MarcaNombre: Type.String() }, CLOSED)
export type BrandAgentRef = Type.Static<typeof BrandAgentRef>

/** A row of `GET api/usuarios` (paged). */
export const UserRow = Type.Object(
  {
    Id: Type.Integer(),
    Email: Type.String(),
    Nombre: Type.String(),
    Apellidos: Type.String(),
    NombreCompleto: Type.String(),
    Telefono: Nullable(Type.String()),
    Activo: Type.Boolean(),
    FechaAlta: Day,
    UltimoAcceso: Nullable(Instant),
    /** Group names, comma separated and sorted, `""` when none. */
    Grupos: Type.String(),
    AgenteId: Nullable(Type.Integer()),
    AgenteCodigo: Nullable(Type.String()),
    AgenteNombre: Nullable(Type.String()),
  },
  CLOSED,
)
export type UserRow = Type.Static<typeof UserRow>

/** `GET api/usuarios/{id}`: direct permissions, effective ones (direct ∪ through groups), agents in every brand. */
export const UserDetail = Type.Object(
  {
    Id: Type.Integer(),
    Email: Type.String(),
    Nombre: Type.String(),
    Apellidos: Type.String(),
    Telefono: Nullable(Type.String()),
    Activo: Type.Boolean(),
    FechaAlta: Day,
    UltimoAcceso: Nullable(Instant),
    /** False while the account has no usable password. */
    TieneContrasena: Type.Boolean(),
    Grupos: Type.Array(GroupRef),
    Permisos: Type.Array(PermissionRef),
    PermisosEfectivos: Type.Array(Type.Object({ ...PermissionRef.properties, Directo: Type.Boolean(), Grupos: Type.Array(Type.String()) }, CLOSED)),
    Agente: Nullable(AgentRef),
    Agentes: Type.Array(BrandAgentRef),
  },
  CLOSED,
)
export type UserDetail = Type.Static<typeof UserDetail>

/** `GET api/grupousuarios/user-groups`. */
export const Group = Type.Object(
  { Id: Type.Integer(), Nombre: Type.String(), Descripcion: Type.String(), NumUsuarios: Type.Integer({ minimum: 0 }), Permisos: Type.Array(PermissionRef) },
  CLOSED,
)
export type Group = Type.Static<typeof Group>

/** `GET api/permission`: a permission and who holds it. */
export const Permission = Type.Object(
  {
    ...PermissionRef.properties,
    Descripcion: Type.String(),
    NumUsuarios: Type.Integer({ minimum: 0 }),
    NumGrupos: Type.Integer({ minimum: 0 }),
    NumApiUsuarios: Type.Integer({ minimum: 0 }),
    /** Users holding it directly or through a group. */
    NumUsuariosEfectivos: Type.Integer({ minimum: 0 }),
  },
  CLOSED,
)
export type Permission = Type.Static<typeof Permission>

/** An API key, never its secret (`ApiKey` is the public id `pk_…`). */
export const ApiKey = Type.Object(
  {
    ApiKey: Type.String({ pattern: '^pk_[0-9a-f]{16}$' }),
    Mascara: Type.String(),
    Descripcion: Type.String(),
    ApiUsuarioId: Type.Integer(),
    ApiUsuario: Type.String(),
    Activa: Type.Boolean(),
    /** `FechaExpiracion` is past. */
    Caducada: Type.Boolean(),
    FechaCreacion: Instant,
    CreadaPor: Nullable(Type.String()),
    UltimoUso: Nullable(Instant),
    FechaExpiracion: Nullable(Instant),
    /** The scopes it holds (schemas/business/api-scopes.ts). */
    Scopes: Type.Array(Type.String()),
    /** The client address of its last accepted call. */
    UltimoUsoIp: Nullable(Type.String()),
    /** `revocada` (disabled), `caducada` (expired, or rotated and past its overlap window), `en-rotacion`, `activa`. */
    Estado: Type.Enum(['activa', 'en-rotacion', 'caducada', 'revocada']),
    /** A rotated key works until then. */
    RotadaHasta: Nullable(Instant),
    /** The key that replaced it in a rotation, and the key it replaced. */
    SustituidaPor: Nullable(Type.String()),
    SustituyeA: Nullable(Type.String()),
  },
  CLOSED,
)
export type ApiKey = Type.Static<typeof ApiKey>

/** A row of `GET api/apikey/scopes`: a scope keys can hold, with the public calls it opens. */
export const ApiScope = Type.Object(
  {
    Scope: Type.String(),
    Nombre: Type.String(),
    Descripcion: Type.String(),
    Tipo: Type.Enum(['lectura', 'escritura']),
    /** Given to a key generated without a choice of scopes. */
    PorDefecto: Type.Boolean(),
    /** `GET /api/public/v1/contratos`, … */
    Llamadas: Type.Array(Type.String()),
  },
  CLOSED,
)
export type ApiScope = Type.Static<typeof ApiScope>

/** A row of `GET api/apiusers/listado-api-user` (paged). */
export const ApiUserRow = Type.Object(
  {
    Id: Type.Integer(),
    Nombre: Type.String(),
    Email: Type.String(),
    Descripcion: Type.String(),
    Activo: Type.Boolean(),
    FechaAlta: Day,
    NumClaves: Type.Integer({ minimum: 0 }),
    NumClavesActivas: Type.Integer({ minimum: 0 }),
    UltimoUso: Nullable(Instant),
    NumPermisos: Type.Integer({ minimum: 0 }),
    AgenteId: Nullable(Type.Integer()),
    AgenteCodigo: Nullable(Type.String()),
    AgenteNombre: Nullable(Type.String()),
  },
  CLOSED,
)
export type ApiUserRow = Type.Static<typeof ApiUserRow>

/** `GET api/apiusers/api-user?id=`: with its permissions, keys, agents and its last audited actions. */
export const ApiUserDetail = Type.Object(
  {
    Id: Type.Integer(),
    Nombre: Type.String(),
    Email: Type.String(),
    Descripcion: Type.String(),
    Activo: Type.Boolean(),
    FechaAlta: Day,
    CreadoPor: Nullable(Type.String()),
    Permisos: Type.Array(PermissionRef),
    Claves: Type.Array(ApiKey),
    /** The agent linked in the caller's brand. */
    Agente: Nullable(AgentRef),
    Agentes: Type.Array(BrandAgentRef),
    /** The last audited actions; `Detalle` depends on the action. */
    Actividad: Type.Array(Type.Object({ Fecha: Instant, Usuario: Type.String(), Accion: Type.String(), Detalle: Type.Record(Type.String(), Type.Unknown()) }, CLOSED)),
  },
  CLOSED,
)
export type ApiUserDetail = Type.Static<typeof ApiUserDetail>

/** `GET api/usuarios/preferences`: a stored preference; `Valor` is whatever JSON the client saved. */
export const Preference = Type.Object({ Id: Type.Integer(), Clave: Type.String(), Valor: Type.Unknown(), FechaCreacion: Instant, FechaModificacion: Instant }, CLOSED)
export type Preference = Type.Static<typeof Preference>
