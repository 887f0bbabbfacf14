import { useEffect, useState } from 'react'
import { isMasked } from '../../../schemas/personal-data'
import type { Field } from '../../../schemas/screen'
import { api } from '../../api/client'
import { LOADING_CLEAR_DELAY, useDelayedFlag } from '../../api/use-delayed-flag'
import { useMessages } from '../../i18n/i18n'
import { getPath } from '../template'
import { messages } from './messages'

export type ServerCheck = { state: 'idle' | 'checking' | 'valid' | 'invalid' | 'unavailable'; message?: string; normalized?: string }

/**
 * Calls a field's server validator as the user types, at once for each new value (the previous
 * call is aborted). Its loading flag clears 500 ms after the answer (spec §9, validators), so the
 * verdict does not flicker in and out while the user is still typing.
 */
export function useServerValidator(validator: Field['validator'], value: unknown): ServerCheck {
  const t = useMessages(messages)
  const [verdict, setVerdict] = useState<ServerCheck>({ state: 'idle' })
  const [inFlight, setInFlight] = useState(false)
  const text = typeof value === 'string' ? value.trim() : ''
  useEffect(() => {
    // A masked value the form was given (issue 16) is left as it is: nothing to check, and the
    // BFF keeps the real one unless the user types a new value.
    if (!validator || !text || isMasked(text)) {
      setInFlight(false)
      setVerdict({ state: 'idle' })
      return
    }
    // A verdict about the previous value no longer applies: the field is pending until checked.
    setVerdict({ state: 'checking' })
    setInFlight(true)
    const controller = new AbortController()
    void (async () => {
      try {
        const answer = await api.get<unknown>(`/${validator.endpoint}`, { params: { [validator.param]: text }, signal: controller.signal })
        const valid = getPath(answer, validator.validField) === true
        const normalized = validator.normalizedField ? (getPath(answer, validator.normalizedField) as string | undefined) : undefined
        const message = getPath(answer, validator.messageField)
        // The server's own message is data; without one, the portal's text is written at render time.
        setVerdict(valid ? { state: 'valid', normalized } : { state: 'invalid', message: message == null ? undefined : String(message) })
      } catch (err) {
        if ((err as Error).name === 'AbortError') return
        // The validator being down must not block the user: the server checks again on submit.
        setVerdict({ state: 'unavailable' })
      }
      setInFlight(false)
    })()
    return () => controller.abort()
  }, [validator, text])
  const checking = useDelayedFlag(inFlight, LOADING_CLEAR_DELAY.validator)
  const check: ServerCheck = checking && verdict.state !== 'idle' ? { state: 'checking' } : verdict
  if (check.state === 'invalid' && check.message === undefined) return { ...check, message: t('check.invalid') }
  if (check.state === 'unavailable') return { ...check, message: t('check.unavailable') }
  return check
}
