import Type from 'typebox'

/** A permission as the upstream names it; the UI matches on `NombreNormalizado`. */
export const Permiso = Type.Object({
  Id: Type.Optional(Type.Integer()),
  Nombre: Type.Optional(Type.String()),
  NombreNormalizado: Type.String({ minLength: 1 }),
})
export type Permiso = Type.Static<typeof Permiso>

/** The signed-in user as the upstream's get-session returns it (extra fields are kept). */
export const SessionUser = Type.Object({
  Id: Type.Integer(),
  UserName: Type.String(),
  Email: Type.String(),
  Nombre: Type.String(),
  Apellidos: Type.Optional(Type.String()),
  Permisos: Type.Array(Permiso),
  Grupos: Type.Optional(Type.Array(Type.Object({ Id: Type.Integer(), Nombre: Type.String() }))),
  Agente: Type.Optional(
    Type.Union([Type.Null(), Type.Object({ Id: Type.Integer(), Nombre: Type.String(), Codigo: Type.Optional(Type.String()) })]),
  ),
})
export type SessionUser = Type.Static<typeof SessionUser>

/** Names of the permissions that gate parts of the UI. */
export const GatingPermissions = ['VERRENOVACIONES', 'GESTORACCESS', 'MENUPRODUCTOSBATERIAS'] as const
