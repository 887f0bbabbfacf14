import type { FastifyReply } from 'fastify'
import { STATUS_CODES } from 'node:http'

/** An error the BFF answers with its own status and Spanish message. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message)
  }
}

/**
 * Sends the BFF's one error shape: `{ statusCode, error, message }`. Never stored: an error is
 * about this request only, and some are answered before the header hook runs (a refused
 * request target), so the data answers' `no-store` is not there to cover them.
 */
export function sendError(reply: FastifyReply, statusCode: number, message: string): FastifyReply {
  return reply.code(statusCode).header('cache-control', 'no-store').type('application/json; charset=utf-8').send({
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
  })
}

export const MESSAGES = {
  unauthenticated: 'Tu sesión ha caducado o no has iniciado sesión.',
  forbidden: 'No tienes permiso para acceder a este recurso.',
  viewAsReadOnly: 'Estás viendo el portal como otro usuario: es de solo lectura y no se puede cambiar nada. Sal de «Ver como» para hacer cambios.',
  csrf: 'Petición rechazada: falta la cabecera de protección CSRF o el origen no es válido.',
  notFound: 'Recurso no encontrado.',
  badCredentials: 'Usuario o contraseña incorrectos.',
  invalidBody: 'Los datos enviados no son válidos.',
  internal: 'Ha ocurrido un error interno. Inténtalo de nuevo más tarde.',
} as const
