import { useEffect, useState } from 'react'
import { isMasked } from '../../../schemas/personal-data'
import type { Field } from '../../../schemas/screen'
import { api } from '../../api/client'
import { LOADING_CLEAR_DELAY } from '../../api/use-delayed-flag'
import { useMessages } from '../../i18n/i18n'
import { getPath } from '../template'
import { messages } from './messages'

export type ServerCheck = { state: 'idle' | 'checking' | 'valid' | 'invalid' | 'unavailable'; message?: string; normalized?: string }

/** Calls a field's server validator as the user types, debounced (spec §9: 500 ms for validators). */
export function useServerValidator(validator: Field['validator'], value: unknown): ServerCheck {
  const t = useMessages(messages)
  const [check, setCheck] = useState<ServerCheck>({ state: 'idle' })
  const text = typeof value === 'string' ? value.trim() : ''
  useEffect(() => {
    // A masked value the form was given (issue 16) is left as it is: nothing to check, and the
    // BFF keeps the real one unless the user types a new value.
    if (!validator || !text || isMasked(text)) {
      setCheck({ state: 'idle' })
      return
    }
    // A verdict about the previous value no longer applies: the field is pending until checked.
    setCheck({ state: 'checking' })
    const controller = new AbortController()
    const timer = setTimeout(async () => {
      try {
        const answer = await api.get<unknown>(`/${validator.endpoint}`, { params: { [validator.param]: text }, signal: controller.signal })
        const valid = getPath(answer, validator.validField) === true
        const normalized = validator.normalizedField ? (getPath(answer, validator.normalizedField) as string | undefined) : undefined
        const message = getPath(answer, validator.messageField)
        // The server's own message is data; without one, the portal's text is written at render time.
        setCheck(valid ? { state: 'valid', normalized } : { state: 'invalid', message: message == null ? undefined : String(message) })
      } catch (err) {
        if ((err as Error).name === 'AbortError') return
        // The validator being down must not block the user: the server checks again on submit.
        setCheck({ state: 'unavailable' })
      }
    }, LOADING_CLEAR_DELAY.validator)
    return () => {
      controller.abort()
      clearTimeout(timer)
    }
  }, [validator, text])
  if (check.state === 'invalid' && check.message === undefined) return { ...check, message: t('check.invalid') }
  if (check.state === 'unavailable') return { ...check, message: t('check.unavailable') }
  return check
}
