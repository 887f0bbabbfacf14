import Type from 'typebox'
import { CLOSED, Day, Nullable } from './common'

/** Batteries (spec §7, `api/bateria/…`): the calculator's answer and its savings periods. */

export const Battery = Type.Object(
  {
    Id: Type.Integer(),
    Modelo: Type.String(),
    Fabricante: Type.String(),
    CapacidadUtilKwh: Type.Number(),
    /** Round-trip efficiency, 0–1. */
    Eficiencia: Type.Number(),
    /** Average daily fill, 0–1. */
    LlenadoMedio: Type.Number(),
    PrecioEur: Type.Number(),
    GarantiaAnios: Type.Number(),
  },
  CLOSED,
)
export type Battery = Type.Static<typeof Battery>

/** One battery's saving: kWh whole, percentages with 1 decimal, euros with 2, payback with 1 (`null`: never pays back). */
export const BatteryResult = Type.Object(
  {
    Bateria: Battery,
    CargaKwh: Type.Number(),
    EntregadaKwh: Type.Number(),
    ExcedenteDespuesKwh: Type.Number(),
    ImportacionDespuesKwh: Type.Number(),
    AutoconsumoAntesPct: Type.Number(),
    AutoconsumoDespuesPct: Type.Number(),
    AutarquiaAntesPct: Type.Number(),
    AutarquiaDespuesPct: Type.Number(),
    AhorroAnualEur: Type.Number(),
    RetornoAnios: Nullable(Type.Number()),
    AhorroNeto10AniosEur: Type.Number(),
  },
  CLOSED,
)
export type BatteryResult = Type.Static<typeof BatteryResult>

/** The body of `POST api/bateria/calculadora` (and `Calculo` of the PDFs and of a saved calculation). */
export const CalculationBody = Type.Object(
  {
    ConsumoAnualKwh: Type.Number({ minimum: 0 }),
    ProduccionFvAnualKwh: Type.Number({ minimum: 0 }),
    AutoconsumoDirectoKwh: Type.Number({ minimum: 0 }),
    PrecioImportacionKwh: Type.Optional(Type.Number({ minimum: 0 })),
    PrecioExcedenteKwh: Type.Optional(Type.Number({ minimum: 0 })),
    PreciosConImpuestos: Type.Boolean(),
    FechasAhorroId: Type.Optional(Type.Integer({ minimum: 1 })),
    BateriaIds: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }))),
  },
  CLOSED,
)
export type CalculationBody = Type.Static<typeof CalculationBody>

/** What the calculation was made with: the inputs, the prices used and the balance without a battery. */
export const CalculationInput = Type.Object(
  {
    ConsumoAnualKwh: Type.Number(),
    ProduccionFvAnualKwh: Type.Number(),
    AutoconsumoDirectoKwh: Type.Number(),
    PrecioImportacionKwh: Type.Number(),
    PrecioExcedenteKwh: Type.Number(),
    PreciosConImpuestos: Type.Boolean(),
    FechasAhorroId: Nullable(Type.Integer()),
    FechasAhorro: Nullable(Type.Object({ Id: Type.Integer(), Nombre: Type.String(), Desde: Day, Hasta: Day }, CLOSED)),
    /** The prices taken from the savings period (names of the fields), none when both were typed. */
    PreciosDelPeriodo: Type.Array(Type.String()),
    FactorImpuestos: Type.Number(),
    ExcedenteAntesKwh: Type.Number(),
    ImportacionAntesKwh: Type.Number(),
    AutoconsumoAntesPct: Type.Number(),
    AutarquiaAntesPct: Type.Number(),
  },
  CLOSED,
)
export type CalculationInput = Type.Static<typeof CalculationInput>

/** `POST api/bateria/calculadora`: the best battery and the others compared, best first. */
export const CalculationAnswer = Type.Object({ Entrada: CalculationInput, Mejor: BatteryResult, Alternativas: Type.Array(BatteryResult) }, CLOSED)
export type CalculationAnswer = Type.Static<typeof CalculationAnswer>

/** `GET api/bateria/FechasAhorro`: a period with its average prices (€/kWh without taxes). */
export const SavingsPeriod = Type.Object(
  {
    Id: Type.Integer(),
    Nombre: Type.String(),
    Desde: Day,
    Hasta: Day,
    /** Average 2.0TD index price with the default fee. */
    PrecioImportacionMedioKwh: Type.Number(),
    /** Production-weighted surplus compensation price. */
    PrecioExcedenteMedioKwh: Type.Number(),
  },
  CLOSED,
)
export type SavingsPeriod = Type.Static<typeof SavingsPeriod>
