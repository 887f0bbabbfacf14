import { HttpError } from './errors'

export type StoreName = 'sessionStore' | 'menuStore' | 'draftStore' | 'auditLog' | 'approvalStore' | 'noticeStore' | 'presenceStore' | 'viewStore' | 'importStore'

export const STORE_UNAVAILABLE_MESSAGE = 'El servicio no está disponible en este momento. Inténtalo de nuevo en unos segundos.'

/**
 * A shared store (Redis) did not answer. An HttpError, so the app's error handler answers a
 * clean 503 with the Spanish message instead of a 500; the cause stays for the logs.
 */
export class StoreUnavailableError extends HttpError {
  constructor(
    readonly store: StoreName,
    cause: unknown,
  ) {
    super(503, STORE_UNAVAILABLE_MESSAGE)
    this.cause = cause
  }
}
