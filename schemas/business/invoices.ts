import Type from 'typebox'
import { CLOSED, Day, Nullable } from './common'

/** Invoices (spec §7 Invoices): a row of `GET api/facturas` (paged) and of `GET api/facturas/facturas-contrato`. */
export const Invoice = Type.Object(
  {
    Id: Type.Integer(),
    Numero: Type.String(),
    CodigoContrato: Type.String(),
    Titular: Type.String(),
    Nif: Type.String(),
    Cups: Type.String(),
    Tarifa: Type.String(),
    PeriodoDesde: Day,
    PeriodoHasta: Day,
    FechaEmision: Day,
    FechaVencimiento: Day,
    FechaCobro: Nullable(Day),
    ConsumoKwh: Type.Number(),
    TerminoEnergia: Type.Number(),
    TerminoPotencia: Type.Number(),
    ImpuestoElectrico: Type.Number(),
    AlquilerContador: Type.Number(),
    BaseImponible: Type.Number(),
    Iva: Type.Number(),
    ImporteTotal: Type.Number(),
    EstadoPago: Type.Enum(['pendiente', 'pagada', 'devuelta', 'impagada']),
    EstadoPagoNombre: Type.String(),
    AgenteId: Nullable(Type.Integer()),
    Agente: Nullable(Type.String()),
  },
  CLOSED,
)
export type Invoice = Type.Static<typeof Invoice>

/** A line of an invoice's breakdown: the lines add up to `ImporteTotal` to the cent. */
export const InvoiceLine = Type.Object(
  {
    Orden: Type.Integer(),
    Grupo: Type.Enum(['energia', 'potencia', 'excesos', 'impuesto_electrico', 'alquiler', 'iva']),
    Periodo: Nullable(Type.String()),
    /** kWh (energy), kW (power), kW above the contracted (excess), the base in € (taxes), days (rental). */
    Cantidad: Type.Number(),
    /** €/kWh (energy), € per kW and day (power), the rate as a share (taxes), € per day (rental); null for excess. */
    Precio: Nullable(Type.Number()),
    Dias: Nullable(Type.Integer()),
    Importe: Type.Number(),
  },
  CLOSED,
)
export type InvoiceLine = Type.Static<typeof InvoiceLine>

/** `GET api/facturas/{id}`: an invoice (the list's fields) with its breakdown. */
export const InvoiceDetail = Type.Object(
  {
    ...Invoice.properties,
    Modalidad: Type.Enum(['fijo', 'indexado']),
    FeeMwh: Nullable(Type.Number()),
    Dias: Type.Integer(),
    TipoImpuestoElectrico: Type.Number(),
    TipoIva: Type.Number(),
    /** Excess power, € (already inside `TerminoPotencia`). */
    ExcesosPotencia: Type.Number(),
    Lineas: Type.Array(InvoiceLine),
    /** The tolls and charges inside the energy and power lines, per period (€). */
    PeajesCargos: Type.Array(Type.Object({ Clave: Type.String(), Grupo: Type.Enum(['energia', 'potencia']), Periodo: Type.String(), PeajesEur: Type.Number(), CargosEur: Type.Number() }, CLOSED)),
    /** Contracted power and the highest hourly demand of each power period (kW), with the excess billed. */
    Potencias: Type.Array(
      Type.Object({ Periodo: Type.String(), Kw: Type.Number(), DemandaMaximaKw: Type.Number(), HorasExceso: Type.Integer(), ImporteExceso: Type.Number() }, CLOSED),
    ),
  },
  CLOSED,
)
export type InvoiceDetail = Type.Static<typeof InvoiceDetail>
