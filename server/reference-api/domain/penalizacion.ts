import { ESTADOS_SUMINISTRANDO } from './contract-rules'
import type { Penalty } from '../../../schemas/business/contracts'

/**
 * Early-termination penalty (domain notes, contract life cycle): only during the first year
 * of supply, counted from the activation day; at most 5 % of the contract price of the
 * estimated energy still pending in that year. None before activation, none in renewal years
 * (with 15 days' notice).
 */

export const PENALIZACION_MAXIMA = 0.05
const DAY_MS = 86_400_000

export interface DatosPenalizacion {
  codigo: string
  estado: string
  estadoNombre: string
  modalidad: string
  fechaActivacion: string | null
  fechaBaja: string | null
  consumoAnualKwh: number | null
  precioMedioKwh: number | null
}

/** The same calendar day one year later (29 February → 28 February). */
function plusOneYear(isoDay: string): string {
  const [y, m, d] = isoDay.split('-').map(Number) as [number, number, number]
  const date = new Date(Date.UTC(y + 1, m - 1, d))
  if (date.getUTCMonth() !== m - 1) date.setUTCDate(0)
  return date.toISOString().slice(0, 10)
}

const days = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
const es = (isoDay: string) => `${isoDay.slice(8, 10)}/${isoDay.slice(5, 7)}/${isoDay.slice(0, 4)}`
const round2 = (v: number) => Math.round(v * 100) / 100

export function calcularPenalizacion(c: DatosPenalizacion, today: string): Penalty {
  const answer = calcular(c, today)
  // The documented field order.
  return {
    CodigoContrato: answer.CodigoContrato,
    AplicaPenalizacion: answer.AplicaPenalizacion,
    Motivo: answer.Motivo,
    FechaActivacion: answer.FechaActivacion,
    FechaFinPermanencia: answer.FechaFinPermanencia,
    DiasRestantes: answer.DiasRestantes,
    EnergiaPendienteKwh: answer.EnergiaPendienteKwh,
    PrecioMedioKwh: answer.PrecioMedioKwh,
    ImporteMaximo: answer.ImporteMaximo,
  }
}

function calcular(c: DatosPenalizacion, today: string): Penalty {
  const base = {
    CodigoContrato: c.codigo,
    FechaActivacion: c.fechaActivacion,
    FechaFinPermanencia: c.fechaActivacion ? plusOneYear(c.fechaActivacion) : null,
    DiasRestantes: 0,
    EnergiaPendienteKwh: 0,
    PrecioMedioKwh: c.precioMedioKwh,
    ImporteMaximo: 0,
  }
  if (!c.fechaActivacion) {
    return {
      ...base,
      AplicaPenalizacion: false,
      Motivo: `El suministro aún no ha comenzado (contrato en estado «${c.estadoNombre}», sin fecha de activación): no hay penalización por resolución anticipada.`,
    }
  }
  const fin = base.FechaFinPermanencia!
  if (c.estado === 'baja') {
    return {
      ...base,
      AplicaPenalizacion: false,
      Motivo: `El contrato causó baja${c.fechaBaja ? ` el ${es(c.fechaBaja)}` : ''}: ya no hay ninguna resolución anticipada posible.`,
    }
  }
  if (!(ESTADOS_SUMINISTRANDO as readonly string[]).includes(c.estado)) {
    return { ...base, AplicaPenalizacion: false, Motivo: `El contrato no está en suministro (estado «${c.estadoNombre}»): no hay penalización por resolución anticipada.` }
  }
  if (today >= fin) {
    return {
      ...base,
      AplicaPenalizacion: false,
      Motivo:
        `El contrato está en un año de renovación (el primer año de suministro terminó el ${es(fin)}): ` +
        'la baja no tiene penalización si se comunica con 15 días de antelación.',
    }
  }
  const yearDays = days(c.fechaActivacion, fin)
  const pending = Math.max(0, days(today < c.fechaActivacion ? c.fechaActivacion : today, fin))
  const energy = Math.round(((c.consumoAnualKwh ?? 0) * pending) / yearDays)
  const amount = c.precioMedioKwh === null ? 0 : round2(PENALIZACION_MAXIMA * energy * c.precioMedioKwh)
  const indexed = c.modalidad === 'indexado' ? ' El precio del contrato indexado se estima con un mercado de referencia de 65 €/MWh más el fee, pérdidas y peajes.' : ''
  return {
    ...base,
    AplicaPenalizacion: true,
    DiasRestantes: pending,
    EnergiaPendienteKwh: energy,
    ImporteMaximo: amount,
    Motivo:
      `Primer año de suministro (activado el ${es(c.fechaActivacion)}, permanencia hasta el ${es(fin)}): una baja anticipada puede ` +
      `penalizarse con hasta el 5 % del precio del contrato por la energía estimada pendiente de suministrar ` +
      `(${pending} días, ${energy.toLocaleString('es-ES')} kWh).${indexed}`,
  }
}
