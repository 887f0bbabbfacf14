import Type from 'typebox'
import { CLOSED, Day, PorPeriodo } from './common'

/** Energy prices (spec §7 Energy, `api/energia/…`): the OMIE series, the closing-price index, surplus compensation, fixed prices. */

export const Modalidad = Type.Enum(['sin_impuestos', 'con_impuestos'])
export type Modalidad = Type.Static<typeof Modalidad>

/**
 * `GET api/energia/historico-cierre/omie`: up to 7 days at the native resolution, longer ranges as daily averages (€/MWh);
 * `resolucion=nativa` keeps the native resolution up to a year. A native `Fecha` is the local start with its UTC offset
 * (`2025-10-26T02:00+02:00`): clock-change days have 23 or 25 hours.
 */
export const OmieSeries = Type.Object(
  {
    Desde: Day,
    Hasta: Day,
    Resolucion: Type.Enum(['cuartohoraria', 'horaria', 'diaria']),
    /** `Fecha`: an instant, or a day for daily averages. */
    Puntos: Type.Array(Type.Object({ Fecha: Type.String(), PrecioMwh: Type.Number() }, CLOSED)),
    Resumen: Type.Object({ MediaMwh: Type.Number(), MinimoMwh: Type.Number(), MaximoMwh: Type.Number() }, CLOSED),
  },
  CLOSED,
)
export type OmieSeries = Type.Static<typeof OmieSeries>

/** A day of the index: the day's mean and the mean of each period's hours (€/kWh). */
export const IndexPoint = Type.Object({ Fecha: Day, PrecioMedioKwh: Type.Number(), PorPeriodo }, CLOSED)
export type IndexPoint = Type.Static<typeof IndexPoint>

/** `GET api/energia/historico-cierre/index`: the closing-price index of a tariff, with the tolls, charges and losses it applied. */
export const IndexSeries = Type.Object(
  {
    TarifaId: Type.Integer(),
    Tarifa: Type.String(),
    Modalidad,
    FeeMwh: Type.Number(),
    Desde: Day,
    Hasta: Day,
    Puntos: Type.Array(IndexPoint),
    Formula: Type.String(),
    /** The regulated figures in force on `Hasta` (€/kWh; losses as a share). */
    Coeficientes: Type.Object({ PeajesKwh: PorPeriodo, CargosKwh: PorPeriodo, PagosCapacidadKwh: PorPeriodo, BonoSocialKwh: Type.Number(), Perdidas: PorPeriodo }, CLOSED),
  },
  CLOSED,
)
export type IndexSeries = Type.Static<typeof IndexSeries>

/** `GET api/energia/historico-cierre/excedentes`: the daily surplus compensation price (€/kWh). */
export const SurplusSeries = Type.Object(
  {
    TarifaId: Type.Integer(),
    Tarifa: Type.String(),
    Desde: Day,
    Hasta: Day,
    Puntos: Type.Array(Type.Object({ Fecha: Day, PrecioKwh: Type.Number() }, CLOSED)),
    Formula: Type.String(),
  },
  CLOSED,
)
export type SurplusSeries = Type.Static<typeof SurplusSeries>

/** `GET api/energia/ultima-fecha`: the last day with prices. */
export const LastDate = Type.Object({ Fecha: Day }, CLOSED)
export type LastDate = Type.Static<typeof LastDate>

/** `GET api/energia/preciofijo`: the fixed-price offer of a tariff. */
export const FixedPrice = Type.Object(
  {
    TarifaId: Type.Integer(),
    Tarifa: Type.String(),
    VigenciaDesde: Day,
    VigenciaHasta: Day,
    PreciosEnergia: PorPeriodo,
    PreciosPotencia: PorPeriodo,
    Unidades: Type.Object({ Energia: Type.String(), Potencia: Type.String() }, CLOSED),
  },
  CLOSED,
)
export type FixedPrice = Type.Static<typeof FixedPrice>
