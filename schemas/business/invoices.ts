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
