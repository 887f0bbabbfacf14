/**
 * Business rules of a supply contract that do not need the database: contracted powers by
 * access tariff, Spanish postcodes, e-mail and phone formats, the life-cycle states and the
 * actions each allows. Used by the insert call (first problem → 400) and by the Kleen
 * validation (every problem listed).
 */

export const PERIODOS = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6'] as const
export type Periodo = (typeof PERIODOS)[number]
/** A value per period, `null` for the periods a tariff lacks. */
export type PorPeriodo = Record<Periodo, number | null>

export function porPeriodo(values: readonly (number | null | undefined)[]): PorPeriodo {
  return { P1: values[0] ?? null, P2: values[1] ?? null, P3: values[2] ?? null, P4: values[3] ?? null, P5: values[4] ?? null, P6: values[5] ?? null }
}

export interface TarifaRef {
  Id: number
  Codigo: string
  PeriodosPotencia: number
  PeriodosEnergia: number
}

/** A problem with a field of a contract: the field's path and a Spanish message. */
export interface Problema {
  campo: string
  mensaje: string
}

/** `4.6` → `4,6` (Spanish decimals in messages). */
export function num(value: number): string {
  return String(Math.round(value * 1000) / 1000).replace('.', ',')
}

/** Low-voltage 2.0TD limits (kW). */
export const LIMITES_20TD = { min: 0.1, max: 15 } as const
/** Sanity ceiling for any contracted power (kW). */
export const POTENCIA_MAXIMA_KW = 100_000

/**
 * The contracted powers' problems for a tariff (in period order):
 * - 2.0TD: P1 and P2 only, each 0.1–15 kW;
 * - 3.0TD and 6.xTD: P1…P6, each > 0, non-decreasing (P1 ≤ P2 ≤ … ≤ P6);
 * - 3.0TD: more than 15 kW in at least one period.
 */
export function problemasPotencias(tarifa: TarifaRef, potencias: PorPeriodo, campo = 'Potencias'): Problema[] {
  const out: Problema[] = []
  const n = tarifa.PeriodosPotencia
  const es20 = n === 2
  for (let i = 0; i < 6; i++) {
    const p = PERIODOS[i]!
    const v = potencias[p]
    if (i >= n) {
      if (v !== null) out.push({ campo: `${campo}.${p}`, mensaje: `la tarifa ${tarifa.Codigo} solo tiene los periodos de potencia ${es20 ? 'P1 y P2' : 'P1 a P6'}; ${p} debe ir vacío.` })
      continue
    }
    if (v === null) {
      out.push({ campo: `${campo}.${p}`, mensaje: `falta la potencia del periodo ${p} (la tarifa ${tarifa.Codigo} necesita ${es20 ? 'P1 y P2' : 'P1 a P6'}).` })
      continue
    }
    if (es20 && (v < LIMITES_20TD.min || v > LIMITES_20TD.max)) {
      out.push({ campo: `${campo}.${p}`, mensaje: `en la tarifa 2.0TD cada potencia debe estar entre 0,1 y 15 kW (${p} es ${num(v)} kW).` })
    } else if (!es20 && (v <= 0 || v > POTENCIA_MAXIMA_KW)) {
      out.push({ campo: `${campo}.${p}`, mensaje: `la potencia debe ser mayor que 0 y no superar ${POTENCIA_MAXIMA_KW.toLocaleString('es-ES')} kW (${p} es ${num(v)} kW).` })
    }
  }
  if (!es20) {
    for (let i = 1; i < n; i++) {
      const prev = potencias[PERIODOS[i - 1]!]
      const cur = potencias[PERIODOS[i]!]
      if (prev !== null && cur !== null && cur < prev) {
        out.push({
          campo: `${campo}.${PERIODOS[i]}`,
          mensaje: `las potencias deben ser crecientes (P1 ≤ P2 ≤ … ≤ P6): ${PERIODOS[i]} (${num(cur)} kW) es menor que ${PERIODOS[i - 1]} (${num(prev)} kW).`,
        })
      }
    }
    if (tarifa.Codigo === '3.0TD') {
      const values = PERIODOS.map((p) => potencias[p]).filter((v): v is number => v !== null)
      if (values.length === 6 && !values.some((v) => v > 15)) {
        out.push({ campo, mensaje: 'la tarifa 3.0TD requiere más de 15 kW en algún periodo (hasta 15 kW corresponde la 2.0TD).' })
      }
    }
  }
  return out
}

/** Spanish postcode: 5 digits whose first two are the province code (01–52). */
export function problemaCodigoPostal(cp: string, provinciaId: number, provinciaNombre: string | undefined): string | null {
  if (!/^\d{5}$/.test(cp)) return 'el código postal debe tener 5 dígitos.'
  const prefix = Number(cp.slice(0, 2))
  if (prefix < 1 || prefix > 52) return `el código postal ${cp} no existe (empieza por 01 a 52).`
  if (prefix !== provinciaId) return `el código postal ${cp} no corresponde a la provincia ${provinciaNombre ?? provinciaId} (debería empezar por ${String(provinciaId).padStart(2, '0')}).`
  return null
}

/** A plausible e-mail address (one @, a dotted domain, no spaces). */
export function emailValido(email: string): boolean {
  return email.length <= 254 && /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[A-Za-z]{2,}$/.test(email)
}

/** A Spanish phone number (9 digits starting 6, 7, 8 or 9; optional +34/0034), normalised to its 9 digits; null if not one. */
export function normalizarTelefono(raw: string): string | null {
  const digits = raw.replace(/[\s().-]/g, '').replace(/^(\+34|0034)/, '')
  return /^[6789]\d{8}$/.test(digits) ? digits : null
}

// ── life cycle ───────────────────────────────────────────────────────────────

/** States in which a supply point's contract is not in force (isactive, duplicate CUPS check). */
export const ESTADOS_SIN_VIGOR = ['baja', 'anulado', 'desistido', 'rechazado'] as const
/** States that no longer take documents (the contract is closed). */
export const ESTADOS_CERRADOS = ['baja', 'anulado', 'desistido', 'rechazado'] as const
/** States reached once the holder has signed: the signed contract must be on file. */
export const ESTADOS_FIRMADOS = ['firmado', 'enviado_distribuidora', 'aceptado', 'rechazado', 'activo', 'baja', 'modificacion_en_curso'] as const
/** States in which energy is being supplied (early termination is possible). */
export const ESTADOS_SUMINISTRANDO = ['activo', 'modificacion_en_curso'] as const

export const ACCIONES = ['enviar_firma', 'validar', 'enviar_distribuidora', 'subir_documentos', 'imprimir'] as const
export type Accion = (typeof ACCIONES)[number]

const incluye = (list: readonly string[], v: string) => list.includes(v)

export function estaEnVigor(estado: string): boolean {
  return !incluye(ESTADOS_SIN_VIGOR, estado)
}

/**
 * What the screens may offer for a contract in a state (hints: the server still checks the
 * data and documents when the action is called).
 */
export function accionesPermitidas(estado: string, validado: boolean): Accion[] {
  const out: Accion[] = []
  if (estado === 'borrador') out.push('enviar_firma')
  if (estado === 'firmado' && !validado) out.push('validar')
  if (estado === 'firmado' && validado) out.push('enviar_distribuidora')
  if (!incluye(ESTADOS_CERRADOS, estado)) out.push('subir_documentos')
  out.push('imprimir')
  return out
}

/** Document types of a contract (`contrato_documentos.tipo`). */
export const TIPOS_DOCUMENTO = [
  { Codigo: 'contrato_firmado', Nombre: 'Contrato firmado' },
  { Codigo: 'dni', Nombre: 'Documento de identidad' },
  { Codigo: 'cif_escrituras', Nombre: 'CIF y escrituras' },
  { Codigo: 'factura_anterior', Nombre: 'Factura anterior' },
  { Codigo: 'otro', Nombre: 'Otro' },
] as const
export type TipoDocumento = (typeof TIPOS_DOCUMENTO)[number]['Codigo']
export const tipoDocumentoNombre = (codigo: string) => TIPOS_DOCUMENTO.find((t) => t.Codigo === codigo)?.Nombre ?? codigo
