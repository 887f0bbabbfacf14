import type { FastifyInstance } from 'fastify'
import { distribuidoraDeCups } from '../../domain/distribuidoras'
import { validateCups, validateIban, validateNif, type Verdict } from '../../domain/identifiers'
import { fail } from '../../lib/http'
import type { CupsCheck, IdentifierCheck } from '../../../../schemas/business/utility'

export const MAX_IDENTIFIER_LENGTH = 64

/**
 * A required identifier from the query: present once, not blank, at most 64 characters
 * (before normalising). Anything else is a 400.
 */
export function identifierParam(query: unknown, name: string): string {
  const value = (query as Record<string, unknown> | undefined)?.[name]
  if (Array.isArray(value)) fail(400, `El parámetro ${name} debe indicarse una sola vez.`)
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) fail(400, `Falta el parámetro ${name}.`)
  if (typeof value !== 'string') fail(400, `El parámetro ${name} debe ser un texto.`)
  if (value.length > MAX_IDENTIFIER_LENGTH) fail(400, `El parámetro ${name} no puede tener más de ${MAX_IDENTIFIER_LENGTH} caracteres.`)
  return value
}

export function validatorAnswer(v: Verdict): IdentifierCheck {
  return { Valido: v.valid, Normalizado: v.normalized, Tipo: v.kind ?? null, Motivo: v.valid ? null : (v.reason ?? 'No es válido.') }
}

export function cupsAnswer(v: Verdict): CupsCheck {
  const distribuidora = distribuidoraDeCups(v.normalized)
  const unknown = v.valid && !distribuidora
  return {
    ...validatorAnswer(v),
    Distribuidora: distribuidora,
    Aviso: unknown ? `La distribuidora ${v.normalized.slice(2, 6)} no es conocida: no se podrá contratar este CUPS.` : null,
  }
}

/** `GET /api/validators/{nif,iban,cups}` (spec §5): the check algorithms of domain/identifiers. */
export async function validatorRoutes(app: FastifyInstance) {
  app.get('/api/validators/nif', async (request) => validatorAnswer(validateNif(identifierParam(request.query, 'nif'))))
  app.get('/api/validators/iban', async (request) => validatorAnswer(validateIban(identifierParam(request.query, 'iban'))))
  app.get('/api/validators/cups', async (request) => cupsAnswer(validateCups(identifierParam(request.query, 'cups'))))
}
