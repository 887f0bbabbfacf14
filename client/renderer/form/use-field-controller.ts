import { useEffect, useEffectEvent, useRef, useState } from 'react'
import type { CallSpec, Field } from '../../../schemas/screen'
import { api, ApiError, send } from '../../api/client'
import { reportError, type CallerText } from '../../api/errors'
import { LOADING_CLEAR_DELAY, useDelayedFlag } from '../../api/use-delayed-flag'
import { messageIn, useI18n, useMessages } from '../../i18n/i18n'
import { resolveCall } from '../actions/run-action'
import { useOptions, type ResolvedOption } from '../options'
import { evalCondition, fill, getPath, type TemplateContext } from '../template'
import { messages } from './messages'
import { useServerValidator, type ServerCheck } from './use-server-validator'

export interface FieldControllerProps {
  field: Field
  value: unknown
  /** The rule error the form shows on the field, if any. */
  error: string | undefined
  ctx: TemplateContext
  /** The form's explicit toast area, if any; `lastArea` only where the endpoint catalogue names none either. */
  area: CallerText | undefined
  lastArea: string
  onChange: (v: unknown) => void
  /** The server validator says the value is wrong (message) or right (null): blocks submit while wrong. */
  onServerResult: (message: string | null) => void
  /** A lookup found a record: fill these fields. */
  onFill: (values: Record<string, unknown>) => void
}

/** What a field view draws beyond its value; no markup, no UI kit. */
export interface FieldController {
  /** The server validator's state (idle without one). */
  check: ServerCheck
  /** The message to show: the rule error, else the server validator's. */
  message: string | undefined
  /** The lookup's note (busy, or the record found), or null. */
  lookup: { busy: boolean; text: string | null }
  /** The check's warning (never blocks), or null. */
  warning: string | null
  /** The choices of a select or multiselect, which may depend on other values of the form. */
  options: ResolvedOption[]
  optionsLoading: boolean
}

/** The headless logic of one form field: its options, server validator, lookup (pre-fill) and check (warning). */
export function useFieldController({ field, value, error, ctx, area, lastArea, onChange, onServerResult, onFill }: FieldControllerProps): FieldController {
  const { options, loading: optionsLoading } = useOptions(field.options, ctx)
  const check = useServerValidator(field.validator, value)
  const lastReported = useRef<string | null>(null)
  const serverMessage = check.state === 'invalid' ? check.message! : null
  useEffect(() => {
    if (lastReported.current === serverMessage) return
    lastReported.current = serverMessage
    onServerResult(serverMessage)
  })
  // The validator's normalised form replaces what was typed (upper case, no spaces), once per verdict.
  const normalize = useEffectEvent((normalized: string) => {
    if (typeof value === 'string' && normalized !== value.trim()) onChange(normalized)
  })
  useEffect(() => {
    if (check.state === 'valid' && check.normalized) normalize(check.normalized)
  }, [check.state, check.normalized])

  // Lookups and checks run on a value the validator accepted, in its normalised form.
  const ready =
    typeof value === 'string' &&
    value.trim() !== '' &&
    !error &&
    (field.validator ? check.state === 'valid' && (!check.normalized || check.normalized === value.trim()) : true)
  const lookup = useLookup(field, ready ? String(value).trim() : null, area, lastArea, onFill)
  const warning = useCheck(field, ready ? String(value).trim() : null, ctx)
  return { check, message: error ?? serverMessage ?? undefined, lookup, warning, options, optionsLoading }
}

/** Looks a valid value up once (an existing client) and fills the mapped fields from the answer. */
function useLookup(field: Field, value: string | null, area: CallerText | undefined, lastArea: string, onFill: (v: Record<string, unknown>) => void): { busy: boolean; text: string | null } {
  const { l } = useI18n()
  const t = useMessages(messages)
  // The answer is kept, not its text: the text is written at render time, in the language of the moment.
  const [state, setState] = useState<{ busy: boolean; found: { result: unknown } | null }>({ busy: false, found: null })
  const done = useRef<string | null>(null)
  const spec = field.lookup
  // What the answer leads to reads the latest props; only the looked-up value starts a lookup.
  const fillFrom = useEffectEvent((values: Record<string, unknown>) => onFill(values))
  const reportFailure = useEffectEvent((err: unknown, errorArea: CallerText | undefined, errorMessage: CallerText | undefined) =>
    reportError(errorArea ?? area, err, errorMessage, { area: lastArea, message: messageIn(messages, 'lookup.error') }),
  )
  useEffect(() => {
    if (!spec || !value || done.current === value) {
      if (!value) setState({ busy: false, found: null })
      return
    }
    const controller = new AbortController()
    setState({ busy: true, found: null })
    api
      .get<unknown>(`/${spec.endpoint}`, { params: { [spec.param]: value }, signal: controller.signal })
      .then((result) => {
        done.current = value
        const values: Record<string, unknown> = {}
        for (const [target, path] of Object.entries(spec.fill)) {
          const v = getPath(result, path)
          if (v !== undefined && v !== null) values[target] = v
        }
        fillFrom(values)
        setState({ busy: false, found: { result } })
      })
      .catch((err) => {
        if ((err as Error).name === 'AbortError') return
        done.current = value
        setState({ busy: false, found: null })
        // Not found is the normal case of a new client; anything else is reported.
        if (!(err instanceof ApiError && err.status === 404)) reportFailure(err, spec.errorArea, spec.errorMessage)
      })
    return () => controller.abort()
  }, [spec, value])
  // Spec §9: the client-lookup loading flag clears 1 500 ms after the answer.
  const busy = useDelayedFlag(state.busy, LOADING_CLEAR_DELAY.clientLookup)
  const found = state.found && spec ? fill(l(spec.found), { result: state.found.result }) : null
  return { busy, text: found ?? (state.busy || busy ? t('lookup.busy') : null) }
}

/** Asks the server about a valid value and returns a warning when its answer says so (never blocks). */
function useCheck(field: Field, value: string | null, ctx: TemplateContext): string | null {
  const { l } = useI18n()
  // The answer that warns is kept, not its text: written at render time, in the language of the moment.
  const [warning, setWarning] = useState<{ result: unknown } | null>(null)
  const spec = field.check
  // The request reads the form's latest values; only the checked value starts a check.
  const requestFor = useEffectEvent((call: CallSpec, checked: string) => resolveCall(call, { ...ctx, values: { ...(ctx.values ?? {}), [field.name]: checked } }))
  useEffect(() => {
    setWarning(null)
    if (!spec || !value) return
    let cancelled = false
    const req = requestFor(spec.call, value)
    send(req.method, req.endpoint, { params: req.params, body: req.body })
      .then((res) => res.json())
      .then((result) => {
        if (!cancelled && evalCondition(spec.warnWhen, { result })) setWarning({ result })
      })
      .catch(() => {
        // A check that cannot run is not a warning: the server decides on submit.
      })
    return () => {
      cancelled = true
    }
  }, [spec, value])
  return warning && spec ? fill(l(spec.message), { result: warning.result }) : null
}
