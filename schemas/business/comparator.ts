import Type from 'typebox'
import { CLOSED, Instant, Nullable, PorPeriodo } from './common'

/** The offer comparator (spec §7, `api/comparador/…`). */

export const OfferCode = Type.Enum(['fijo', 'indexado'])

/** What a supply costs over a year, by term. */
export const Cost = Type.Object(
  {
    ImporteAnualEur: Type.Number(),
    EnergiaEur: Type.Number(),
    PotenciaEur: Type.Number(),
    /** Meter rental: the reference API adds it, spec §7 does not list it, so an upstream may leave it out. */
    AlquilerContadorEur: Type.Optional(Type.Number()),
    ImpuestosEur: Type.Number(),
  },
  CLOSED,
)
export type Cost = Type.Static<typeof Cost>

/** One of the brand's offers, its prices and the saving against the current cost. */
export const Offer = Type.Object(
  {
    Codigo: OfferCode,
    Nombre: Type.String(),
    ...Cost.properties,
    PreciosEnergiaKwh: PorPeriodo,
    PreciosPotenciaKwDia: PorPeriodo,
    AhorroAnualEur: Type.Number(),
    AhorroPct: Type.Number(),
  },
  CLOSED,
)
export type Offer = Type.Static<typeof Offer>

export const ComparisonResult = Type.Object({ Actual: Cost, Ofertas: Type.Array(Offer), Mejor: OfferCode }, CLOSED)
export type ComparisonResult = Type.Static<typeof ComparisonResult>

/** What a comparison was made with. */
export const ComparisonInput = Type.Object(
  {
    Nombre: Nullable(Type.String()),
    Cliente: Nullable(Type.String()),
    TarifaId: Type.Integer(),
    PotenciasKw: PorPeriodo,
    ConsumoAnualKwh: PorPeriodo,
    PreciosActuales: Type.Object({ EnergiaKwh: PorPeriodo, PotenciaKwDia: PorPeriodo }, CLOSED),
  },
  CLOSED,
)
export type ComparisonInput = Type.Static<typeof ComparisonInput>

/** A row of `GET api/comparador/comparativas` (paged). */
export const ComparisonRow = Type.Object(
  {
    Id: Type.Integer(),
    Nombre: Nullable(Type.String()),
    Cliente: Nullable(Type.String()),
    Tarifa: Type.String(),
    ImporteActualEur: Type.Number(),
    MejorOferta: OfferCode,
    AhorroAnualEur: Type.Number(),
    AhorroPct: Type.Number(),
    Fecha: Instant,
  },
  CLOSED,
)
export type ComparisonRow = Type.Static<typeof ComparisonRow>

/** `GET api/comparador/comparativas/{id}`: a saved comparison. */
export const SavedComparison = Type.Object(
  {
    Id: Type.Integer(),
    Nombre: Nullable(Type.String()),
    Cliente: Nullable(Type.String()),
    TarifaId: Type.Integer(),
    Tarifa: Type.String(),
    Fecha: Instant,
    Entrada: ComparisonInput,
    Resultado: ComparisonResult,
  },
  CLOSED,
)
export type SavedComparison = Type.Static<typeof SavedComparison>

/** The body of `POST api/comparador/comparativa`; `Guardar` keeps the comparison (then it has an `Id`). */
export const ComparisonBody = Type.Object(
  {
    Nombre: Type.Optional(Type.String()),
    Cliente: Type.Optional(Type.String()),
    TarifaId: Type.Integer(),
    PotenciasKw: PorPeriodo,
    ConsumoAnualKwh: PorPeriodo,
    PreciosActuales: Type.Object({ EnergiaKwh: PorPeriodo, PotenciaKwDia: PorPeriodo }, CLOSED),
    Guardar: Type.Optional(Type.Boolean()),
  },
  CLOSED,
)
export type ComparisonBody = Type.Static<typeof ComparisonBody>

/** `POST api/comparador/comparativa`: the result, with the input echoed and the saved comparison's `Id` (`null` when not kept). */
export const ComparisonAnswer = Type.Object(
  { Id: Nullable(Type.Integer()), Entrada: Type.Object({ ...ComparisonInput.properties, Tarifa: Type.String() }, CLOSED), ...ComparisonResult.properties },
  CLOSED,
)
export type ComparisonAnswer = Type.Static<typeof ComparisonAnswer>
