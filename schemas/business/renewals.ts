import Type from 'typebox'
import { CLOSED, Day, Instant, Nullable } from './common'
import { Paged } from './paged'

/** Renewals (spec §7 Renewals). */

/** `GET api/renovaciones/subestados`: the substates a renewal goes through (`Final`: it ends there). */
export const RenewalSubstate = Type.Object({ Id: Type.Integer(), Codigo: Type.String(), Nombre: Type.String(), Final: Type.Boolean() }, CLOSED)
export type RenewalSubstate = Type.Static<typeof RenewalSubstate>

export const RenewalRow = Type.Object(
  {
    Id: Type.Integer(),
    CodigoContrato: Type.String(),
    Titular: Type.String(),
    Nif: Type.String(),
    Cups: Type.String(),
    Tarifa: Type.String(),
    Modalidad: Type.Enum(['fijo', 'indexado']),
    EstadoContrato: Type.String(),
    FechaRenovacion: Day,
    SubestadoId: Type.Integer(),
    SubestadoCodigo: Type.String(),
    Subestado: Type.String(),
    /** Average energy price, €/kWh, of every contract (indexed: the last 12 months' index with the fee). */
    PrecioActual: Type.Number(),
    PrecioPropuesto: Type.Number(),
    /** Always `€/kWh`: the unit of `PrecioActual` and `PrecioPropuesto`. */
    Unidad: Type.String(),
    /** The indexed contract's current and proposed fee, €/MWh (`null` for fixed prices). */
    FeeActualMwh: Nullable(Type.Number()),
    FeePropuestoMwh: Nullable(Type.Number()),
    VariacionPct: Type.Number(),
    ConsumoAnual: Nullable(Type.Number()),
    FechaProximaRenovacion: Nullable(Day),
    FechaUltimoCambio: Nullable(Instant),
    AgenteId: Nullable(Type.Integer()),
    Agente: Nullable(Type.String()),
    Provincia: Nullable(Type.String()),
  },
  CLOSED,
)
export type RenewalRow = Type.Static<typeof RenewalRow>

/** `GET api/renovaciones`: a page, with the count per substate when `includeSubEstadoFilter` asks for it. */
export const RenewalPage = Type.Object(
  {
    ...Paged(RenewalRow).properties,
    SubEstados: Type.Optional(Type.Array(Type.Object({ ...RenewalSubstate.properties, Cantidad: Type.Integer({ minimum: 0 }) }, CLOSED))),
  },
  CLOSED,
)
export type RenewalPage = Type.Static<typeof RenewalPage>
