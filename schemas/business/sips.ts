import Type from 'typebox'
import { CLOSED, Day, Nullable, PorPeriodo } from './common'

/**
 * SIPS (spec §7, `api/sips/…`): the supply point's record, readable (`info`), as the national
 * system spells it (`info/raw`), for many CUPS at once (`info/list`) and its monthly readings.
 */

export const SipsInfo = Type.Object(
  {
    Cups: Type.String(),
    Distribuidora: Type.Object({ Codigo: Type.String(), Nombre: Type.String() }, CLOSED),
    CodigoPostal: Type.String(),
    Municipio: Type.String(),
    ProvinciaCodigo: Type.String(),
    Provincia: Type.String(),
    Tarifa: Type.Object({ CodigoAtr: Type.String(), Codigo: Type.String() }, CLOSED),
    Tension: Type.Enum(['BT', 'MT', 'AT']),
    TensionV: Type.Number(),
    PotenciaMaximaBieKw: Type.Number(),
    PotenciaMaximaApmKw: Type.Number(),
    PotenciasContratadasKw: PorPeriodo,
    FechaAltaSuministro: Day,
    FechaUltimoMovimientoContrato: Day,
    FechaUltimoCambioComercializador: Day,
    FechaUltimaLectura: Day,
    Telegestionado: Type.Boolean(),
    Fases: Type.Enum(['monofasico', 'trifasico']),
    PropiedadContador: Type.Enum(['distribuidora', 'titular']),
    DiscriminacionHoraria: Type.String(),
    PerfilConsumo: Type.Enum(['Pa', 'Pb', 'Pc', 'Pd']),
    CodigoAutoconsumo: Nullable(Type.String()),
    Cnae: Type.String(),
    ViviendaHabitual: Type.Boolean(),
    Impagos: Type.Boolean(),
    DepositoGarantiaEur: Type.Number(),
    Contratable: Type.Boolean(),
    BonoSocial: Type.Boolean(),
    ConsumoAnualKwh: Type.Object({ ...PorPeriodo.properties, Total: Type.Number() }, CLOSED),
  },
  CLOSED,
)
export type SipsInfo = Type.Static<typeof SipsInfo>

/** `GET api/sips/info/raw`: the national system's field names (powers in W, energy in Wh). */
export const SipsRaw = Type.Object(
  {
    cups: Type.String(),
    codigoEmpresaDistribuidora: Type.String(),
    nombreEmpresaDistribuidora: Type.String(),
    codigoPostalPS: Type.String(),
    municipioPS: Type.String(),
    codigoProvinciaPS: Type.String(),
    nombreProvinciaPS: Type.String(),
    codigoTarifaATREnVigor: Type.String(),
    codigoTensionV: Type.String(),
    potenciaMaximaBIEW: Type.Number(),
    potenciaMaximaAPMW: Type.Number(),
    potenciasContratadasEnWP1: Nullable(Type.Number()),
    potenciasContratadasEnWP2: Nullable(Type.Number()),
    potenciasContratadasEnWP3: Nullable(Type.Number()),
    potenciasContratadasEnWP4: Nullable(Type.Number()),
    potenciasContratadasEnWP5: Nullable(Type.Number()),
    potenciasContratadasEnWP6: Nullable(Type.Number()),
    fechaAltaSuministro: Type.String(),
    fechaUltimoMovimientoContrato: Type.String(),
    fechaUltimoCambioComercializador: Type.String(),
    fechaUltimaLectura: Type.String(),
    valorDerechosAccesoW: Type.Number(),
    codigoTelegestion: Type.String(),
    codigoFasesEquipoMedida: Type.String(),
    codigoPropiedadEquipoMedida: Type.String(),
    codigoDisponibilidadICP: Type.String(),
    codigoDHEquipoDeMedida: Type.String(),
    codigoPerfilConsumo: Type.String(),
    codigoAutoconsumo: Type.String(),
    CNAE: Type.String(),
    esViviendaHabitual: Type.Boolean(),
    informacionImpagos: Type.Boolean(),
    importeDepositoGarantiaEuros: Type.Number(),
    tipoIdTitular: Type.Enum(['NIF', 'CIF']),
    esContratable: Type.Boolean(),
    aplicacionBonoSocial: Type.Boolean(),
    consumoAnualWh: Type.Number(),
  },
  CLOSED,
)
export type SipsRaw = Type.Static<typeof SipsRaw>

/** One monthly reading. */
export const SipsReading = Type.Object(
  {
    FechaInicio: Day,
    FechaFin: Day,
    Tarifa: Type.String(),
    ActivaKwh: PorPeriodo,
    ReactivaKvarh: PorPeriodo,
    PotenciaDemandadaKw: PorPeriodo,
    TipoLectura: Type.Enum(['real', 'estimada']),
  },
  CLOSED,
)
export type SipsReading = Type.Static<typeof SipsReading>

/** `GET api/sips/info/consumo`. */
export const SipsConsumption = Type.Object({ Cups: Type.String(), Lecturas: Type.Array(SipsReading) }, CLOSED)
export type SipsConsumption = Type.Static<typeof SipsConsumption>

/** The body of `POST api/sips/info/list` (and of its export). */
export const SipsListBody = Type.Object({ Cups: Type.Array(Type.String(), { minItems: 1, maxItems: 200 }) }, CLOSED)
export type SipsListBody = Type.Static<typeof SipsListBody>

/** One CUPS of `POST api/sips/info/list`, as given, normalised, and its record or why there is none. */
export const SipsListItem = Type.Object(
  {
    Cups: Type.String(),
    Normalizado: Type.String(),
    Estado: Type.Enum(['ok', 'invalido', 'sin_datos']),
    Motivo: Nullable(Type.String()),
    Info: Nullable(SipsInfo),
  },
  CLOSED,
)
export type SipsListItem = Type.Static<typeof SipsListItem>
export const SipsList = Type.Array(SipsListItem)
