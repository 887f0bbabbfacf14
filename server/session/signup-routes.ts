import type { FastifyInstance } from 'fastify'
import { SignUpBody } from '../../schemas/auth'
import type { CallIndex } from '../../schemas/catalogue/match'
import type { ApprovalService, SignedUpAccount } from '../approvals/approval-service'
import { sendError } from '../lib/errors'
import type { SignUpThrottle } from '../security/recovery-throttle'
import type { UpstreamClient } from '../upstream/upstream-client'

/** A sign-up body is a name, an e-mail and a password: a few hundred bytes. */
const SIGNUP_BODY_LIMIT = 4 * 1024
const REGISTER_CALL = 'auth.register'

export const SIGNUP_HELD_MESSAGE = 'Hemos recibido tu solicitud de alta. Un administrador debe aprobar la cuenta antes de que puedas iniciar sesión.'

const isAccount = (body: unknown): body is SignedUpAccount =>
  body !== null && typeof body === 'object' && Number.isSafeInteger((body as SignedUpAccount).Id) && typeof (body as SignedUpAccount).Email === 'string'

/**
 * `POST /bff/auth/signup` (spec §7 sign-up), registered only with SIGNUP_ENABLED=true: throttled
 * as sign-in is (every request counts, per address and per e-mail and address), forwarded to
 * the upstream's catalogued `POST api/auth/register`, and the inactive account it creates is
 * held in the Aprobaciones inbox of its brand. The answer is 202: nobody is signed in.
 */
export async function signupRoutes(app: FastifyInstance, opts: { upstream: UpstreamClient; throttle: SignUpThrottle; approvals: ApprovalService; catalogue: CallIndex }) {
  const register = opts.catalogue.calls.find((c) => c.id === REGISTER_CALL)
  if (!register || register.method !== 'POST') throw new Error(`SIGNUP_ENABLED=true needs the call ${REGISTER_CALL} in the endpoint catalogue`)

  app.post<{ Body: SignUpBody }>('/bff/auth/signup', { schema: { body: SignUpBody }, bodyLimit: SIGNUP_BODY_LIMIT }, async (request, reply) => {
    if (await opts.throttle.check(request, reply, request.body.Email)) return reply
    const answer = await opts.upstream.call({
      method: 'POST',
      path: `/${register.path}`,
      body: request.body,
      brandDomain: request.brand.Domain,
      requestId: String(request.id),
    })
    if (answer.status === 400 || answer.status === 409) {
      request.log.info({ event: 'signup_refused', status: answer.status }, 'sign-up refused upstream')
      return sendError(reply, answer.status, typeof answer.body === 'string' && answer.body && answer.body.length <= 300 ? answer.body : 'Los datos del alta no son válidos.')
    }
    if ((answer.status !== 200 && answer.status !== 201) || !isAccount(answer.body)) {
      request.log.warn({ event: 'signup_failed', status: answer.status }, 'sign-up not accepted by the upstream')
      return sendError(reply, 502, 'No se ha podido crear la cuenta. Vuelve a intentarlo más tarde.')
    }
    const held = await opts.approvals.holdSignUp(request, answer.body)
    request.log.info({ event: 'signup', userId: answer.body.Id, approvalId: held.id }, 'account signed up: waiting for approval')
    return reply.code(202).send({ message: SIGNUP_HELD_MESSAGE })
  })
}
