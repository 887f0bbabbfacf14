import Type from 'typebox'

/** `GET /api/utility/dashboard/resumen`: the dashboard's summary figures (reference API README, "Utilidades: resumen del panel"). */
export const DashboardSummary = Type.Object(
  {
    Fecha: Type.String(),
    ContratosTotal: Type.Number(),
    ContratosActivos: Type.Number(),
    ContratosEnTramite: Type.Number(),
    ContratosPendientesFirma: Type.Number(),
    AltasMesActual: Type.Number(),
    AltasMesAnterior: Type.Number(),
    ActivacionesMesActual: Type.Number(),
    BajasMesActual: Type.Number(),
    ConsumoAnualCarteraKwh: Type.Number(),
    FacturacionMesActual: Type.Number(),
    FacturacionMesAnterior: Type.Number(),
    FacturasPendientes: Type.Number(),
    ImportePendiente: Type.Number(),
    ImpagosNumero: Type.Number(),
    ImpagosImporte: Type.Number(),
    RenovacionesProximas: Type.Number(),
    Agentes: Type.Number(),
  },
  { additionalProperties: false },
)
export type DashboardSummary = Type.Static<typeof DashboardSummary>
