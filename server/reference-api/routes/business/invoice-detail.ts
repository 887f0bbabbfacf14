import type Database from 'better-sqlite3'
import type { DetalleFactura } from '../../domain/invoicing'
import { fail } from '../../lib/http'
import type { InvoiceDetail, InvoiceLine } from '../../../../schemas/business/invoices'

/**
 * `GET /api/facturas/{id}`: one invoice with its breakdown. `Lineas` are the lines that add up
 * to `ImporteTotal` to the cent, in the order of a Spanish bill (energy per period, power per
 * period, excess power, electricity tax, meter rental, VAT); `PeajesCargos` the tolls and charges
 * already inside the energy and power lines (shown apart, as the bill does); `Potencias` the
 * contracted power and the highest hourly demand of each power period.
 */

type Row = Omit<InvoiceDetail, 'Modalidad' | 'FeeMwh' | 'Dias' | 'TipoImpuestoElectrico' | 'TipoIva' | 'ExcesosPotencia' | 'Lineas' | 'PeajesCargos' | 'Potencias'>

export function invoiceDetail(db: Database.Database, row: Row | undefined, id: number): InvoiceDetail {
  if (!row) fail(404, `No se ha encontrado la factura ${id}.`)
  const raw = db.prepare('SELECT detalle FROM facturas WHERE id = ?').pluck().get(id) as string | null
  if (raw === null) fail(404, `La factura ${row.Numero} no tiene desglose.`)
  const d = JSON.parse(raw) as DetalleFactura
  const lines: InvoiceLine[] = []
  const push = (l: Omit<InvoiceLine, 'Orden'>) => lines.push({ Orden: lines.length + 1, ...l })
  for (const e of d.Energia) push({ Grupo: 'energia', Periodo: e.Periodo, Cantidad: e.Kwh, Precio: e.PrecioKwh, Dias: null, Importe: e.Importe })
  for (const p of d.Potencia) push({ Grupo: 'potencia', Periodo: p.Periodo, Cantidad: p.Kw, Precio: p.PrecioKwDia, Dias: p.Dias, Importe: p.Importe })
  for (const x of d.Excesos) push({ Grupo: 'excesos', Periodo: x.Periodo, Cantidad: Math.round((x.DemandaMaximaKw - x.Kw) * 1000) / 1000, Precio: null, Dias: null, Importe: x.Importe })
  push({ Grupo: 'impuesto_electrico', Periodo: null, Cantidad: d.ImpuestoElectrico.Base, Precio: d.ImpuestoElectrico.Tipo, Dias: null, Importe: d.ImpuestoElectrico.Importe })
  push({ Grupo: 'alquiler', Periodo: null, Cantidad: d.AlquilerContador.Dias, Precio: d.AlquilerContador.EurDia, Dias: d.AlquilerContador.Dias, Importe: d.AlquilerContador.Importe })
  push({ Grupo: 'iva', Periodo: null, Cantidad: d.Iva.Base, Precio: d.Iva.Tipo, Dias: null, Importe: d.Iva.Importe })
  const excess = new Map(d.Excesos.map((x) => [x.Periodo, x]))
  return {
    ...row,
    Modalidad: d.Modalidad,
    FeeMwh: d.FeeMwh,
    Dias: d.Dias,
    TipoImpuestoElectrico: d.ImpuestoElectrico.Tipo,
    TipoIva: d.Iva.Tipo,
    ExcesosPotencia: d.ExcesosPotencia,
    Lineas: lines,
    PeajesCargos: [
      ...d.Energia.map((e) => ({ Clave: `energia-${e.Periodo}`, Grupo: 'energia' as const, Periodo: e.Periodo, PeajesEur: e.PeajesEur, CargosEur: e.CargosEur })),
      ...d.Potencia.map((p) => ({ Clave: `potencia-${p.Periodo}`, Grupo: 'potencia' as const, Periodo: p.Periodo, PeajesEur: p.PeajesEur, CargosEur: p.CargosEur })),
    ],
    Potencias: d.Demanda.map((p) => ({
      Periodo: p.Periodo,
      Kw: p.Kw,
      DemandaMaximaKw: p.DemandaMaximaKw,
      HorasExceso: excess.get(p.Periodo)?.HorasExceso ?? 0,
      ImporteExceso: excess.get(p.Periodo)?.Importe ?? 0,
    })),
  }
}

