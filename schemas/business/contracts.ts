import Type from 'typebox'
import { CLOSED, Day, Instant, Nullable, PorPeriodo } from './common'

/** Contracts and clients (spec §7 Contracts, Clients). */

/** A row of `GET api/contract` (paged, spec §7). */
/** A holder's identity and address, as both a contract's `Cliente` and a client's own answer carry them. */
const ClientFields = {
    Id: Type.Integer(),
    Tipo: Type.Enum(['fisica', 'juridica']),
    Nif: Type.String(),
    Nombre: Nullable(Type.String()),
    Apellido1: Nullable(Type.String()),
    Apellido2: Nullable(Type.String()),
    RazonSocial: Nullable(Type.String()),
    FormaJuridica: Nullable(Type.String()),
    NombreCompleto: Type.String(),
    Email: Nullable(Type.String()),
    Telefono: Nullable(Type.String()),
    Direccion: Type.String(),
    CodigoPostal: Type.String(),
    Municipio: Type.String(),
}

export const ContractRow = Type.Object(
  {
    Id: Type.Integer(),
    CodigoContrato: Type.String(),
    Cups: Type.String(),
    Titular: Type.String(),
    Nif: Type.String(),
    TipoTitular: Type.Enum(['fisica', 'juridica']),
    TarifaId: Type.Integer(),
    Tarifa: Type.String(),
    Estado: Type.String(),
    EstadoNombre: Type.String(),
    EstadoColor: Type.String(),
    MotivoRechazo: Nullable(Type.String()),
    Modalidad: Type.Enum(['fijo', 'indexado']),
    FechaAlta: Day,
    FechaFirma: Nullable(Day),
    FechaActivacion: Nullable(Day),
    FechaBaja: Nullable(Day),
    FechaProximaRenovacion: Nullable(Day),
    AgenteId: Nullable(Type.Integer()),
    Agente: Nullable(Type.String()),
    AgenteCodigo: Nullable(Type.String()),
    ProvinciaId: Type.Integer(),
    Provincia: Type.String(),
    Municipio: Type.String(),
    CodigoPostal: Type.String(),
    Distribuidora: Type.String(),
    Cnae: Nullable(Type.String()),
    PotenciaP1: Nullable(Type.Number()),
    PotenciaP2: Nullable(Type.Number()),
    ConsumoAnual: Nullable(Type.Number()),
  },
  CLOSED,
)
export type ContractRow = Type.Static<typeof ContractRow>

/** A catalogue entry a contract refers to (request type, invoice delivery, commission, group). */
const TipoRef = Type.Object({ Id: Type.Integer(), Codigo: Type.String(), Nombre: Type.String() }, CLOSED)
const Provincia = Type.Object({ Id: Type.Integer(), Nombre: Type.String() }, CLOSED)
const UserRef = Type.Object({ Id: Type.Integer(), Nombre: Nullable(Type.String()) }, CLOSED)

/** A step of a contract's history. */
export const ContractHistoryEntry = Type.Object(
  {
    Fecha: Instant,
    UsuarioId: Nullable(Type.Integer()),
    Usuario: Type.String(),
    Accion: Type.String(),
    EstadoAnterior: Nullable(Type.String()),
    EstadoNuevo: Nullable(Type.String()),
    Detalle: Nullable(Type.String()),
  },
  CLOSED,
)

/** `GET api/contract/id?codigo=`: the contract with its client, supply point, history, renewal and signature. */
export const ContractDetail = Type.Object(
  {
    Id: Type.Integer(),
    CodigoContrato: Type.String(),
    Estado: Type.String(),
    EstadoNombre: Type.String(),
    EstadoColor: Type.String(),
    MotivoRechazo: Nullable(Type.String()),
    Cups: Type.String(),
    Titular: Type.String(),
    Nif: Type.String(),
    TarifaId: Type.Integer(),
    Tarifa: Type.String(),
    TarifaNombre: Type.String(),
    Modalidad: Type.Enum(['fijo', 'indexado']),
    Potencias: PorPeriodo,
    PreciosEnergia: PorPeriodo,
    PreciosPotencia: PorPeriodo,
    FeeMwh: Nullable(Type.Number()),
    ConsumoAnual: Nullable(Type.Number()),
    Cnae: Nullable(Type.Object({ Codigo: Type.String(), Nombre: Nullable(Type.String()) }, CLOSED)),
    TipoAltaSolicitud: Nullable(TipoRef),
    TipoImpresionFactura: Nullable(TipoRef),
    TipoComision: Nullable(TipoRef),
    Colectivo: Nullable(TipoRef),
    Iban: Nullable(Type.String()),
    FechaAlta: Day,
    FechaFirma: Nullable(Day),
    FechaActivacion: Nullable(Day),
    FechaBaja: Nullable(Day),
    FechaProximaRenovacion: Nullable(Day),
    AgenteId: Nullable(Type.Integer()),
    Agente: Nullable(Type.String()),
    AgenteCodigo: Nullable(Type.String()),
    AgenteDatos: Nullable(
      Type.Object({ Id: Type.Integer(), Codigo: Type.String(), Nombre: Type.String(), Nivel: Type.Integer(), Email: Nullable(Type.String()), Telefono: Nullable(Type.String()) }, CLOSED),
    ),
    Cliente: Type.Object(
      {
        ...ClientFields,
        Provincia: Nullable(Provincia),
        Iban: Nullable(Type.String()),
        FechaAlta: Day,
      },
      CLOSED,
    ),
    PuntoSuministro: Type.Object(
      {
        Id: Type.Integer(),
        Cups: Type.String(),
        Direccion: Type.String(),
        CodigoPostal: Type.String(),
        Municipio: Type.String(),
        Provincia: Nullable(Provincia),
        Distribuidora: Type.Object({ Codigo: Type.String(), Nombre: Type.String() }, CLOSED),
        TarifaId: Type.Integer(),
        Cnae: Nullable(Type.String()),
      },
      CLOSED,
    ),
    /** The latest renewal, if any. */
    Renovacion: Nullable(
      Type.Object(
        {
          Id: Type.Integer(),
          FechaRenovacion: Day,
          SubestadoId: Type.Integer(),
          SubestadoCodigo: Type.String(),
          Subestado: Type.String(),
          PrecioActual: Type.Number(),
          PrecioPropuesto: Type.Number(),
        },
        CLOSED,
      ),
    ),
    NumFacturas: Type.Integer({ minimum: 0 }),
    CreadoEn: Instant,
    CreadoPor: Nullable(UserRef),
    ActualizadoEn: Nullable(Instant),
    ActualizadoPor: Nullable(UserRef),
    Historial: Type.Array(ContractHistoryEntry),
    Observaciones: Nullable(Type.String()),
    Validado: Type.Boolean(),
    ValidadoEn: Nullable(Instant),
    ValidadoPor: Nullable(UserRef),
    /** The electronic signature request, if one was sent. */
    Firma: Nullable(
      Type.Object(
        {
          Id: Type.Integer(),
          Proveedor: Type.String(),
          SolicitudId: Type.String(),
          Estado: Type.String(),
          Enlace: Type.String(),
          Destinatario: Type.String(),
          EnviadaEn: Instant,
          FirmadaEn: Nullable(Instant),
        },
        CLOSED,
      ),
    ),
    NumDocumentos: Type.Integer({ minimum: 0 }),
    /** What the caller may do with it now (state transitions). */
    AccionesPermitidas: Type.Array(Type.String()),
  },
  CLOSED,
)
export type ContractDetail = Type.Static<typeof ContractDetail>

/** A document of `GET api/contract/documentos`; a generated one has no stored file (size and hash null). */
export const ContractDocument = Type.Object(
  {
    Id: Type.Integer(),
    Nombre: Type.String(),
    Tipo: Type.String(),
    TipoNombre: Type.String(),
    TipoMime: Type.String(),
    Tamano: Nullable(Type.Integer({ minimum: 0 })),
    Sha256: Nullable(Type.String()),
    Fecha: Instant,
    Usuario: Type.String(),
    UsuarioId: Nullable(Type.Integer()),
    Generado: Type.Boolean(),
  },
  CLOSED,
)
export type ContractDocument = Type.Static<typeof ContractDocument>

/** `GET api/contract/situacion-contratos`: contracts per state. */
export const StateCount = Type.Object({ Estado: Type.String(), Nombre: Type.String(), Color: Type.String(), Cantidad: Type.Integer({ minimum: 0 }) }, CLOSED)
export type StateCount = Type.Static<typeof StateCount>

/** `GET api/contract/cantidad-por-mes`: new contracts per month (`YYYY-MM`). */
export const MonthCount = Type.Object({ Mes: Type.String({ pattern: '^\\d{4}-\\d{2}$' }), Cantidad: Type.Integer({ minimum: 0 }) }, CLOSED)
export type MonthCount = Type.Static<typeof MonthCount>

/** `POST api/cups/isactive`: whether the CUPS has a supplying contract, and which. */
export const CupsActive = Type.Object(
  { Cups: Type.String(), Activo: Type.Boolean(), CodigoContrato: Nullable(Type.String()), Estado: Nullable(Type.String()), EstadoNombre: Nullable(Type.String()) },
  CLOSED,
)
export type CupsActive = Type.Static<typeof CupsActive>

/** `GET api/contract/kleen/is-valid` (and `-withdoc`): the checks before validating a contract. */
export const KleenCheck = Type.Object({ CodigoContrato: Type.String(), Valido: Type.Boolean(), Errores: Type.Array(Type.String()), Avisos: Type.Array(Type.String()) }, CLOSED)
export type KleenCheck = Type.Static<typeof KleenCheck>

/** `GET api/contract/penalizacion`: the early-termination penalty of a contract. */
export const Penalty = Type.Object(
  {
    CodigoContrato: Type.String(),
    AplicaPenalizacion: Type.Boolean(),
    Motivo: Type.String(),
    FechaActivacion: Nullable(Day),
    FechaFinPermanencia: Nullable(Day),
    DiasRestantes: Type.Integer({ minimum: 0 }),
    EnergiaPendienteKwh: Type.Number(),
    /** `null` when the contract has no price to average (no consumption or prices known). */
    PrecioMedioKwh: Nullable(Type.Number()),
    ImporteMaximo: Type.Number(),
  },
  CLOSED,
)
export type Penalty = Type.Static<typeof Penalty>

/** `GET api/client?identificador=` and `GET api/client-id?id=`: a client with its supply points and contracts. */
export const Client = Type.Object(
  {
    ...ClientFields,
    ProvinciaId: Nullable(Type.Integer()),
    Provincia: Nullable(Type.String()),
    Iban: Nullable(Type.String()),
    FechaAlta: Day,
    PuntosSuministro: Type.Array(
      Type.Object(
        {
          Id: Type.Integer(),
          Cups: Type.String(),
          Direccion: Type.String(),
          CodigoPostal: Type.String(),
          Municipio: Type.String(),
          ProvinciaId: Nullable(Type.Integer()),
          DistribuidoraCodigo: Type.String(),
          Distribuidora: Type.String(),
          TarifaId: Type.Integer(),
          Tarifa: Type.String(),
          Cnae: Nullable(Type.String()),
          Provincia: Nullable(Type.String()),
        },
        CLOSED,
      ),
    ),
    Contratos: Type.Array(
      Type.Object(
        {
          Id: Type.Integer(),
          CodigoContrato: Type.String(),
          Estado: Type.String(),
          EstadoNombre: Type.String(),
          Cups: Type.String(),
          Tarifa: Type.String(),
          FechaAlta: Day,
          FechaActivacion: Nullable(Day),
          FechaBaja: Nullable(Day),
        },
        CLOSED,
      ),
    ),
  },
  CLOSED,
)
export type Client = Type.Static<typeof Client>
