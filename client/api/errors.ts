import { getLanguage } from '../i18n/i18n'
import { ApiError } from './client'
import { notifyError } from './toast'

/** The default failure text (spec §8), in the interface's language. */
export function defaultErrorMessage(): string {
  return getLanguage() === 'en' ? 'An error occurred during the request.' : 'Ha ocurrido un error en la solicitud.'
}

/** What a failure toast says: the server's text when it sent one, else the call's own message, else the default. */
export function errorText(err: unknown, fallback?: string): string {
  if (err instanceof ApiError && err.serverMessage) return err.serverMessage
  return fallback ?? defaultErrorMessage()
}

/** Shows a failure through the one toast path, titled by area. 401s are handled by the session, not toasted. */
export function reportError(area: string, err: unknown, fallback?: string): void {
  if (err instanceof ApiError && err.status === 401) return
  if ((err as Error)?.name === 'AbortError') return
  notifyError(area, errorText(err, fallback))
}
