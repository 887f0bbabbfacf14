import type { FastifyReply } from 'fastify'

/**
 * The reference API answers errors the way the portal expects from its upstream: a Spanish
 * text body (spec §8: "if the server returns a text body it is shown").
 */
export class ApiFailure extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message)
  }
}

export function fail(statusCode: number, message: string): never {
  throw new ApiFailure(statusCode, message)
}

export function sendText(reply: FastifyReply, statusCode: number, message: string): FastifyReply {
  return reply.code(statusCode).type('text/plain; charset=utf-8').send(message)
}
