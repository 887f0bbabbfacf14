import Type from 'typebox'
import { CLOSED, Nullable } from './common'

/** The lists of `api/utility/…` (spec §7 Utility) and the identifier validators (`api/validators/…`). */

/** An entry of a fixed list: request types, invoice delivery, commission types, customer groups. */
export const CatalogueEntry = Type.Object({ Id: Type.Integer(), Codigo: Type.String(), Nombre: Type.String() }, CLOSED)
export type CatalogueEntry = Type.Static<typeof CatalogueEntry>

/** `GET api/utility/tarifas`: an access tariff, its periods and power bounds (`null`: no upper bound). */
export const Tariff = Type.Object(
  {
    Id: Type.Integer(),
    Codigo: Type.String(),
    CodigoAtr: Type.String(),
    Nombre: Type.String(),
    Tension: Type.String(),
    PeriodosPotencia: Type.Integer({ minimum: 1, maximum: 6 }),
    PeriodosEnergia: Type.Integer({ minimum: 1, maximum: 6 }),
    PotenciaMinimaKw: Type.Number(),
    PotenciaMaximaKw: Nullable(Type.Number()),
  },
  CLOSED,
)
export type Tariff = Type.Static<typeof Tariff>

/** `GET api/utility/contrato/estados`: a contract state with its colour. */
export const ContractState = Type.Object({ ...CatalogueEntry.properties, Color: Type.String() }, CLOSED)
export type ContractState = Type.Static<typeof ContractState>

/** `GET api/utility/usergroups-options`. */
export const UserGroupOption = Type.Object({ Id: Type.Integer(), Nombre: Type.String(), Descripcion: Type.String() }, CLOSED)
export type UserGroupOption = Type.Static<typeof UserGroupOption>

/** `GET api/validators/iban` and `…/nif`: the verdict, the identifier normalised, what it is, why it is not valid. */
export const IdentifierCheck = Type.Object({ Valido: Type.Boolean(), Normalizado: Type.String(), Tipo: Nullable(Type.String()), Motivo: Nullable(Type.String()) }, CLOSED)
export type IdentifierCheck = Type.Static<typeof IdentifierCheck>

/** `GET api/validators/cups`: as the others, with its distributor and a warning when that is not known. */
export const CupsCheck = Type.Object(
  { ...IdentifierCheck.properties, Distribuidora: Nullable(Type.Object({ Codigo: Type.String(), Nombre: Type.String() }, CLOSED)), Aviso: Nullable(Type.String()) },
  CLOSED,
)
export type CupsCheck = Type.Static<typeof CupsCheck>
