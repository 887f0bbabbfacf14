import { DISTRIBUIDORAS } from '../data/municipios'

/**
 * Distribution companies by the 4-digit code that follows `ES` in a CUPS (domain notes:
 * distributor prefixes). Several codes belong to the same group's network.
 */
export interface Distribuidora {
  Codigo: string
  Nombre: string
}

const NAMES: Record<string, string> = {
  ...DISTRIBUIDORAS,
  '0390': 'UFD Distribución Electricidad',
  '0397': 'UFD Distribución Electricidad',
  '0023': 'e-distribución Redes Digitales',
  '0024': 'e-distribución Redes Digitales',
  '0029': 'e-distribución Redes Digitales',
  '0288': 'e-distribución Redes Digitales',
  '0363': 'e-distribución Redes Digitales',
  '0396': 'e-distribución Redes Digitales',
}

/** Every known distributor code, sorted. */
export const DISTRIBUIDORA_CODIGOS: readonly string[] = Object.keys(NAMES).sort()

/** The distributor of a 4-digit code, or null when unknown. */
export function distribuidoraPorCodigo(codigo: string): Distribuidora | null {
  const nombre = NAMES[codigo]
  return nombre ? { Codigo: codigo, Nombre: nombre } : null
}

/** The distributor named by a (normalised) CUPS: `ES` + 4 digits; null when unknown or malformed. */
export function distribuidoraDeCups(cups: string): Distribuidora | null {
  const m = /^ES(\d{4})/.exec(cups)
  return m ? distribuidoraPorCodigo(m[1]!) : null
}
