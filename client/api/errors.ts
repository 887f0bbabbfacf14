import { useEffect, useState } from 'react'
import type { LocalizedText } from '../../schemas/i18n'
import { getLanguage, localized, messageIn, translate } from '../i18n/i18n'
import { callErrorSpec, errorSpecOf, loadedErrorSpec, type ErrorSpec } from './call-catalogue'
import { ApiError } from './client'
import { messages } from './messages'
import { notifyError, showToast } from './toast'

/** A text a caller gives a toast: plain, or Spanish with its English (a screen's errorArea/errorMessage). */
export type CallerText = string | LocalizedText

/** A caller's text in the current language, read when it is shown. */
const shown = (text: CallerText | undefined) => (text === undefined ? undefined : localized(text))

/** The default failure text (spec §8), in the interface's language. */
export function defaultErrorMessage(): string {
  return getLanguage() === 'en' ? 'An error occurred during the request.' : 'Ha ocurrido un error en la solicitud.'
}

/** What a failure toast says: the server's text when it sent one, else the call's own message, else the default. */
export function errorText(err: unknown, fallback?: string): string {
  if (err instanceof ApiError && err.serverMessage) return err.serverMessage
  return fallback ?? defaultErrorMessage()
}

/**
 * What a caller falls back to only where the endpoint catalogue does not know the failed call
 * (the BFF's own `/bff/*` paths): a node's title, the usual text of a failed load.
 */
export interface LastResort {
  area?: string
  message?: string
}

/**
 * The title and message of a failure. Title: the caller's explicit area, else the catalogue's
 * area for the call, else the last resort. Message: the server's text, else the caller's
 * explicit message, else the catalogue's (the default of spec §8 when it names none) or, for a
 * call it does not know, the last resort's.
 */
function compose(area: string | undefined, server: string | null, message: string | undefined, spec: ErrorSpec | null, last: LastResort): { title: string; detail: string } {
  return {
    title: area ?? spec?.area ?? last.area ?? translate('error.area'),
    detail: server ?? message ?? (spec ? (spec.message ?? defaultErrorMessage()) : (last.message ?? defaultErrorMessage())),
  }
}

/**
 * Shows a failure through the one toast path (spec §8), titled by area. `area` and `message`
 * are what the caller deliberately says (a screen's errorArea/errorMessage, a widget's own);
 * left out, the endpoint catalogue speaks for the failed call. 401s are the session's, not toasted.
 */
export function reportError(areaText: CallerText | undefined, err: unknown, messageText?: CallerText, lastResort: LastResort = {}): void {
  if (err instanceof ApiError && err.status === 401) return
  if (isHeld(err)) return notifyHeld(areaText, err, lastResort)
  const area = shown(areaText)
  const message = shown(messageText)
  if ((err as Error)?.name === 'AbortError') return
  const server = err instanceof ApiError && err.serverMessage ? err.serverMessage : null
  // Nothing left for the catalogue to say (or no call to look up): shown at once, its chunk not fetched.
  if ((area && (server ?? message)) || !(err instanceof ApiError)) {
    const { title, detail } = compose(area, server, message, null, lastResort)
    return notifyError(title, detail)
  }
  void errorSpecOf(err).then((spec) => {
    const { title, detail } = compose(area, server, message, spec, lastResort)
    notifyError(title, detail)
  })
}

/**
 * Hands `show` the title of a toast about a call (a success after it): the caller's area at
 * once, else the catalogue's area for the call, else the last resort — as its failures are titled.
 */
export function withCallArea(area: CallerText | undefined, method: string, path: string, lastResort: string, show: (title: string) => void): void {
  if (area) return show(localized(area))
  void callErrorSpec(method, path).then((spec) => show(spec?.area ?? lastResort))
}

/**
 * The in-page text of a failed load (the server's own text is the toast's): the caller's
 * message, else the catalogue's for the failed call, else the last resort. Null for the moment
 * the catalogue is still being read, so a wrong text is never announced first.
 */
export function useFailureText(err: unknown, messageText: CallerText | undefined, lastResort: string): string | null {
  const message = shown(messageText)
  const call = err instanceof ApiError ? err : null
  const [found, setFound] = useState<{ err: ApiError; spec: ErrorSpec | null } | null>(null)
  const spec = !call || message ? null : found?.err === call ? found.spec : loadedErrorSpec(call.method, call.path)
  useEffect(() => {
    if (!call || spec !== undefined) return
    let live = true
    void errorSpecOf(call).then((s) => {
      if (live) setFound({ err: call, spec: s })
    })
    return () => {
      live = false
    }
  }, [call, spec])
  if (message) return message
  if (spec === undefined) return null
  return spec ? (spec.message ?? defaultErrorMessage()) : lastResort
}

/** Whether a call was held for a second person's approval (the BFF's 202 with a pending id). */
export function isHeld(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 202
}

/** A held change: an information toast (not an error, not a success), titled like the call's other toasts, in the user's language. */
function notifyHeld(areaText: CallerText | undefined, err: ApiError, lastResort: LastResort): void {
  const alone = (err.body as { waitingForApprover?: unknown } | null)?.waitingForApprover === true
  const detail = messageIn(messages, alone ? 'held.alone' : 'held.pending')
  withCallArea(areaText, err.method, err.path, lastResort.area ?? messageIn(messages, 'held.area'), (title) => showToast({ severity: 'info', summary: title, detail, life: 6000 }))
}
