import type { FastifySchemaCompiler } from 'fastify'
import type { TSchema } from 'typebox'
import { requestPartCheck } from '../../schemas/request-check'

/**
 * Fastify validates the BFF's route bodies, query strings and params with TypeBox's compiler,
 * so schemas from `schemas/` are the one source of truth; the check itself lives there, shared
 * with the reference API.
 */
export const typeboxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => requestPartCheck(schema, httpPart)
