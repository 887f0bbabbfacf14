import Type from 'typebox'
import { CLOSED, Day, Nullable } from './common'

/** Agents (spec §7 Agents): the sales network of a brand, a tree of levels. */

/** A row of `GET api/agentes` (paged). */
export const AgentRow = Type.Object(
  {
    Id: Type.Integer(),
    Codigo: Type.String(),
    Nombre: Type.String(),
    Nif: Nullable(Type.String()),
    Email: Nullable(Type.String()),
    Telefono: Nullable(Type.String()),
    Nivel: Type.Integer({ minimum: 1 }),
    AgentePadreId: Nullable(Type.Integer()),
    AgentePadre: Nullable(Type.String()),
    ProvinciaId: Nullable(Type.Integer()),
    Provincia: Nullable(Type.String()),
    UsuarioId: Nullable(Type.Integer()),
    UsuarioEmail: Nullable(Type.String()),
    TipoComisionId: Nullable(Type.Integer()),
    TipoComision: Nullable(Type.String()),
    Activo: Type.Boolean(),
    FechaAlta: Day,
    NumContratos: Type.Integer({ minimum: 0 }),
    NumContratosActivos: Type.Integer({ minimum: 0 }),
  },
  CLOSED,
)
export type AgentRow = Type.Static<typeof AgentRow>

const AgentChild = Type.Object({ Id: Type.Integer(), Codigo: Type.String(), Nombre: Type.String(), Nivel: Type.Integer(), Activo: Type.Boolean() }, CLOSED)

/** `GET api/agentes/{id}`: the row with its commission type, parent, linked user and children. */
export const AgentDetail = Type.Object(
  {
    ...AgentRow.properties,
    TipoComisionDatos: Nullable(Type.Object({ Id: Type.Integer(), Codigo: Type.String(), Nombre: Type.String() }, CLOSED)),
    Padre: Nullable(Type.Object({ Id: Type.Integer(), Codigo: Type.String(), Nombre: Type.String(), Nivel: Type.Integer() }, CLOSED)),
    Usuario: Nullable(Type.Object({ Id: Type.Integer(), Email: Type.String(), Nombre: Type.String(), Apellidos: Type.String(), Activo: Type.Boolean() }, CLOSED)),
    Hijos: Type.Array(AgentChild),
  },
  CLOSED,
)
export type AgentDetail = Type.Static<typeof AgentDetail>

const nodeFields = {
  Id: Type.Integer(),
  Codigo: Type.String(),
  Nombre: Type.String(),
  Nivel: Type.Integer({ minimum: 1 }),
  Activo: Type.Boolean(),
  UsuarioId: Nullable(Type.Integer()),
  UsuarioEmail: Nullable(Type.String()),
  NumContratos: Type.Integer({ minimum: 0 }),
}

/** `GET api/agentes/jerarquia/{id}` (one tree) and `…/loggedUser` (the caller's trees): an agent and its subtree. */
export const AgentNode = Type.Cyclic({ AgentNode: Type.Object({ ...nodeFields, Hijos: Type.Array(Type.Ref('AgentNode')) }, CLOSED) }, 'AgentNode')
export type AgentNode = Type.Static<typeof AgentNode>

/** `GET api/agentes/{id}/usuarios/asociables`: users that may be linked to the agent. */
export const LinkableUser = Type.Object(
  { Id: Type.Integer(), Email: Type.String(), Nombre: Type.String(), Apellidos: Type.String(), NombreCompleto: Type.String(), AsociadoAEsteAgente: Type.Boolean() },
  CLOSED,
)
export type LinkableUser = Type.Static<typeof LinkableUser>
