import { Button } from 'primereact/button'
import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import { Message } from 'primereact/message'
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { Link } from 'react-router-dom'
import { ApiError, send } from '../../api/client'
import { useScreenPath } from '../../api/screen-path'
import { notifySuccess } from '../../api/toast'
import { messageIn, useI18n, useMessages } from '../../i18n/i18n'
import { describedBy } from '../../ui/described-by'
import { FieldShell } from '../../ui/FieldShell'
import { intlLocale } from '../../ui/format'
import { messages } from './messages'
import { ResponseView, type CallResult } from './ResponseView'
import {
  buildRequest,
  describeCall,
  exampleValues,
  keyProblem,
  maskKey,
  normalizeRoute,
  pickHeaders,
  statusText,
  type CatalogEntry,
  type CatalogParam,
} from './request'
import './api-test.css'

const CATALOG_PATH = '/api/public/v1'
const HISTORY_SIZE = 10

interface Identity {
  ApiUsuario?: { Nombre?: string }
  Permisos?: { NombreNormalizado?: string; Nombre?: string }[]
  Marca?: { Nombre?: string }
  Agente?: { Nombre?: string; Codigo?: string } | null
}

interface HistoryItem extends CallResult {
  id: number
  at: Date
  entryId: string | number
  values: Record<string, string>
}

/** One call through the portal's api client with the key; the answer (or the failure) as shown to the user. */
async function call(method: string, path: string, params: Record<string, string | number>, key: string): Promise<CallResult> {
  const started = performance.now()
  try {
    const res = await send(method, path, { params, headers: { 'X-Api-Key': key } })
    const body = await res.text()
    return { method, url: urlOf(path, params), status: res.status, ms: performance.now() - started, headers: pickHeaders(res.headers), body }
  } catch (err) {
    const ms = performance.now() - started
    if (err instanceof ApiError) return { method, url: urlOf(path, params), status: err.status, ms, headers: [], body: err.serverMessage ?? '' }
    return { method, url: urlOf(path, params), status: 0, ms, headers: [], body: (err as Error)?.message ?? '' }
  }
}

function urlOf(path: string, params: Record<string, string | number>): string {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()
  return q ? `${path}?${q}` : path
}

/**
 * API Test: tries the public integration API (`/api/public/v1/*`) with one of the user's keys.
 * The key stays in this component's memory only (never stored, never in the history) and is
 * forgotten when the page is left.
 */
export default function ApiTestConsole() {
  const t = useMessages(messages)
  const { lang } = useI18n()
  // The keys' own screen, where a key is made (the same permission as this console).
  const keysPath = useScreenPath()('apikeys')
  const [key, setKey] = useState('')
  // Whether the key was refused (and which parameters were): the messages are worked out on
  // render, so they follow a language switch.
  const [keyRefused, setKeyRefused] = useState(false)
  const keyError = keyRefused ? keyProblem(key) : null
  // Masked by CSS, not a password field: browsers must not offer to remember the key.
  const [showKey, setShowKey] = useState(false)
  const [connecting, setConnecting] = useState(false)
  const [catalog, setCatalog] = useState<CatalogEntry[] | null>(null)
  const [identity, setIdentity] = useState<Identity | null>(null)
  const [connectFailure, setConnectFailure] = useState<CallResult | null>(null)
  const [entryId, setEntryId] = useState<string | number | null>(null)
  const [values, setValues] = useState<Record<string, string>>({})
  const [refusedParams, setRefusedParams] = useState<ReadonlySet<string>>(new Set())
  const [sending, setSending] = useState(false)
  const [result, setResult] = useState<CallResult | null>(null)
  const [history, setHistory] = useState<HistoryItem[]>([])
  const seq = useRef(0)
  const responseHeading = useRef<HTMLHeadingElement>(null)

  const entry = catalog?.find((e) => e.Id === entryId) ?? null
  const permissions = useMemo(() => new Set((identity?.Permisos ?? []).map((p) => p.NombreNormalizado ?? '')), [identity])

  useEffect(() => {
    if (result) responseHeading.current?.focus()
  }, [result])

  const connect = async (e: FormEvent) => {
    e.preventDefault()
    const problem = keyProblem(key)
    setKeyRefused(!!problem)
    if (problem) {
      document.getElementById('apitest-key')?.focus()
      return
    }
    const k = key.trim()
    setConnecting(true)
    setConnectFailure(null)
    try {
      const answer = await call('GET', CATALOG_PATH, {}, k)
      if (answer.status !== 200) {
        setCatalog(null)
        setIdentity(null)
        setConnectFailure(answer)
        return
      }
      let list: CatalogEntry[] = []
      try {
        list = JSON.parse(answer.body) as CatalogEntry[]
      } catch {
        list = []
      }
      setCatalog(Array.isArray(list) ? list : [])
      // Who the key is, for the permission marks of the picker (the call records the key's use, as any other).
      const me = await call('GET', `${CATALOG_PATH}/me`, {}, k)
      try {
        setIdentity(me.status === 200 ? (JSON.parse(me.body) as Identity) : null)
      } catch {
        setIdentity(null)
      }
      const first = Array.isArray(list) ? list[0] : undefined
      if (first && !list.some((x) => x.Id === entryId)) chooseEntry(first.Id, list)
      notifySuccess('API Test', messageIn(messages, 'toast.catalog', { n: Array.isArray(list) ? list.length : 0 }))
    } finally {
      setConnecting(false)
    }
  }

  const chooseEntry = (id: string | number | null, list = catalog) => {
    setEntryId(id)
    setRefusedParams(new Set())
    const chosen = list?.find((x) => x.Id === id)
    setValues(chosen ? exampleValues(chosen) : {})
  }

  const forget = () => {
    setKey('')
    setCatalog(null)
    setIdentity(null)
    setEntryId(null)
    setValues({})
    setConnectFailure(null)
    setKeyRefused(false)
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!entry) return
    const built = buildRequest(entry, values)
    if (!built.ok) {
      setRefusedParams(new Set(Object.keys(built.errors)))
      const first = entry.Parametros.find((p) => built.errors[p.Nombre])
      if (first) document.getElementById(paramId(first))?.focus()
      return
    }
    setRefusedParams(new Set())
    setSending(true)
    try {
      const answer = await call(built.method, built.path, built.params, key.trim())
      setResult(answer)
      const item: HistoryItem = { ...answer, id: ++seq.current, at: new Date(), entryId: entry.Id, values: { ...values } }
      setHistory((h) => [item, ...h].slice(0, HISTORY_SIZE))
    } finally {
      setSending(false)
    }
  }

  const preview = entry ? buildRequest(entry, values) : null
  const paramErrors: Record<string, string | undefined> =
    preview && !preview.ok ? Object.fromEntries(Object.entries(preview.errors).filter(([name]) => refusedParams.has(name))) : {}
  const options = (catalog ?? []).map((c) => ({
    value: c.Id,
    label: `${(c.Metodo || 'GET').toUpperCase()} ${normalizeRoute(c.Ruta)}`,
    description: c.Descripcion,
    allowed: !c.Permiso || !identity || permissions.has(c.Permiso),
    permiso: c.Permiso,
  }))

  return (
    <div className="apitest">
      <form className="card screen-form apitest__key" onSubmit={connect} noValidate aria-labelledby="apitest-key-title">
        <h2 id="apitest-key-title" className="screen-form__title">
          {t('step.key')}
        </h2>
        <FieldShell
          id="apitest-key"
          label={t('key.label')}
          required
          error={keyError}
          hint={
            <>
              {t('key.help.before')}
              {keysPath ? <Link to={keysPath}>{t('key.help.link')}</Link> : t('key.help.link')}
              {t('key.help.after')}
            </>
          }
        >
          <div className="apitest__key-row">
            <span className="apitest__key-field">
              <InputText
                id="apitest-key"
                value={key}
                onChange={(ev) => {
                  setKey(ev.target.value)
                  if (keyRefused) setKeyRefused(false)
                }}
                type="text"
                autoComplete="off"
                spellCheck={false}
                autoCapitalize="off"
                placeholder="pk_0123456789abcdef.…"
                aria-describedby={describedBy('apitest-key', true, keyError)}
                aria-required
                aria-invalid={keyError ? true : undefined}
                invalid={!!keyError}
                className={`apitest__key-input ${showKey ? '' : 'apitest__key-input--masked'}`}
              />
              <Button
                type="button"
                icon={showKey ? 'pi pi-eye-slash' : 'pi pi-eye'}
                text
                aria-label={showKey ? t('key.hide') : t('key.show')}
                aria-pressed={showKey}
                onClick={() => setShowKey(!showKey)}
              />
            </span>
            <Button type="submit" label={catalog ? t('key.reload') : t('key.connect')} icon="pi pi-link" loading={connecting} />
            {catalog && <Button type="button" label={t('key.forget')} icon="pi pi-times" text onClick={forget} />}
          </div>
        </FieldShell>
        {connectFailure && (
          <Message
            className="apitest__connect-error"
            severity="error"
            text={`${t('connect.failed', { reason: connectFailure.status ? `${connectFailure.status} ${statusText(connectFailure.status)}` : t('call.noResponse') })}${connectFailure.body ? ` — ${connectFailure.body}` : ''}`}
          />
        )}
        {identity && (
          <p className="apitest__identity" role="status">
            <i className="pi pi-check-circle" aria-hidden="true" /> {t('identity.key', { key: maskKey(key) })} <strong>{identity.ApiUsuario?.Nombre ?? t('identity.apiUser')}</strong>
            {identity.Marca?.Nombre ? ` ${t('identity.brand', { brand: identity.Marca.Nombre })}` : ''}
            {identity.Agente ? ` · ${t('identity.agent', { code: identity.Agente.Codigo ?? '', name: identity.Agente.Nombre ?? '' })}` : ''} · {t('identity.permissions')}{' '}
            {(identity.Permisos ?? []).map((p) => p.NombreNormalizado).join(', ') || t('identity.none')}
          </p>
        )}
      </form>

      {catalog && (
        <form className="card screen-form apitest__call" onSubmit={submit} noValidate aria-labelledby="apitest-call-title">
          <h2 id="apitest-call-title" className="screen-form__title">
            {t('step.call')}
          </h2>
          <FieldShell id="apitest-entry" label={t('call.label')} hint={entry ? entry.Descripcion : t('call.help')}>
            <Dropdown
              inputId="apitest-entry"
              value={entryId}
              options={options}
              optionLabel="label"
              optionValue="value"
              onChange={(ev) => chooseEntry(ev.value as string | number)}
              aria-describedby="apitest-entry-help"
              placeholder={t('call.placeholder')}
              emptyMessage={t('call.emptyCatalog')}
              itemTemplate={(o: (typeof options)[number]) => (
                <span className="apitest__option">
                  <code>{o.label}</code>
                  <small>
                    {o.description}
                    {o.permiso ? ` · ${o.permiso}${o.allowed ? '' : ` ${t('call.keyLacks')}`}` : ''}
                  </small>
                </span>
              )}
            />
          </FieldShell>
          {entry && (
            <>
              <p className="apitest__permission">
                {entry.Permiso ? (
                  <>
                    {t('perm.needs')} <code>{entry.Permiso}</code>
                    {identity && ` ${permissions.has(entry.Permiso) ? t('perm.keyHas') : t('perm.keyLacks')}`}
                  </>
                ) : (
                  t('perm.none')
                )}
              </p>
              {entry.Parametros.length > 0 ? (
                <fieldset className="apitest__params">
                  <legend>{t('params.legend')}</legend>
                  <div className="apitest__params-grid">
                    {entry.Parametros.map((p) => (
                      <ParamInput key={p.Nombre} param={p} value={values[p.Nombre] ?? ''} error={paramErrors[p.Nombre]} onChange={(v) => {
                        setValues((prev) => ({ ...prev, [p.Nombre]: v }))
                        if (refusedParams.has(p.Nombre)) setRefusedParams((prev) => new Set([...prev].filter((n) => n !== p.Nombre)))
                      }} />
                    ))}
                  </div>
                </fieldset>
              ) : (
                <p className="field-help">{t('params.none')}</p>
              )}
              <p className="apitest__preview">
                <span className="apitest__preview-label">{t('preview.request')}</span>{' '}
                <code data-testid="apitest-url">{preview?.ok ? `${preview.method} ${preview.url}` : `${(entry.Metodo || 'GET').toUpperCase()} ${normalizeRoute(entry.Ruta)}`}</code>
                <span className="apitest__preview-label">{` ${t('preview.withHeader')}`}</span> <code>X-Api-Key: {maskKey(key)}</code>
              </p>
              <div className="action-bar">
                <Button type="submit" label={t('call.send')} icon="pi pi-send" loading={sending} />
                {entry.Parametros.some((p) => p.Ejemplo !== undefined && p.Ejemplo !== null) && (
                  <Button type="button" label={t('call.useExamples')} icon="pi pi-replay" text onClick={() => setValues(exampleValues(entry))} />
                )}
              </div>
            </>
          )}
        </form>
      )}

      {result && (
        <section className="card apitest__response" aria-labelledby="apitest-response-title">
          <h2 id="apitest-response-title" ref={responseHeading} tabIndex={-1} className="screen-form__title">
            {t('step.response')}
          </h2>
          <p className="p-sr-only" role="status">
            {describeCall(result.method, result.url, result.status, result.ms)}
          </p>
          <ResponseView result={result} />
        </section>
      )}

      {history.length > 0 && (
        <section className="card apitest__history" aria-labelledby="apitest-history-title">
          <h2 id="apitest-history-title" className="screen-form__title">
            {t('history.title')}
          </h2>
          <div className="apitest__history-scroll">
            <table className="simple-table apitest__history-table">
              <caption className="p-sr-only">{t('history.caption', { n: HISTORY_SIZE })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('history.col.time')}</th>
                  <th scope="col">{t('history.col.request')}</th>
                  <th scope="col">{t('history.col.status')}</th>
                  <th scope="col">{t('history.col.duration')}</th>
                  <th scope="col">{t('history.col.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {history.map((h) => (
                  <tr key={h.id}>
                    <td>{h.at.toLocaleTimeString(intlLocale(lang))}</td>
                    <td>
                      <code className="apitest__history-url">
                        {h.method} {h.url}
                      </code>
                    </td>
                    <td>
                      <span className={`apitest__status apitest__status--${h.status === 0 ? 'network' : h.status < 400 ? 'ok' : h.status < 500 ? 'client-error' : 'server-error'}`}>{h.status || '—'}</span>
                    </td>
                    <td>{Math.round(h.ms)} ms</td>
                    <td>
                      <span className="row-actions">
                        <Button type="button" size="small" text label={t('history.view')} aria-label={t('history.viewLabel', { call: `${h.method} ${h.url}` })} onClick={() => setResult(h)} />
                        {catalog?.some((c) => c.Id === h.entryId) && (
                          <Button
                            type="button"
                            size="small"
                            text
                            label={t('history.repeat')}
                            aria-label={t('history.repeatLabel', { call: `${h.method} ${h.url}` })}
                            onClick={() => {
                              setEntryId(h.entryId)
                              setValues(h.values)
                              setRefusedParams(new Set())
                              document.getElementById('apitest-call-title')?.scrollIntoView({ block: 'start' })
                            }}
                          />
                        )}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  )
}

const paramId = (p: CatalogParam) => `apitest-param-${p.Nombre}`

function ParamInput({ param, value, error, onChange }: { param: CatalogParam; value: string; error?: string; onChange: (v: string) => void }) {
  const t = useMessages(messages)
  const id = paramId(param)
  const where = param.En === 'path' ? t('param.in.path') : t('param.in.query')
  const type = param.Tipo === 'integer' ? t('param.type.integer') : param.Tipo === 'date' ? t('param.type.date') : t('param.type.string')
  return (
    <FieldShell
      id={id}
      label={<code>{param.Nombre}</code>}
      required={param.Requerido}
      error={error}
      hint={
        <>
          {param.Descripcion}
          {param.Ejemplo !== undefined && param.Ejemplo !== null && param.Ejemplo !== '' ? ` ${t('param.example', { value: String(param.Ejemplo) })}` : ''}
        </>
      }
      labelNote={
        <span className="apitest__param-meta">
          {' '}
          ({where}, {type}
          {param.Requerido ? `, ${t('param.isRequired')}` : ''})
        </span>
      }
    >
      <InputText
        id={id}
        value={value}
        type={param.Tipo === 'date' ? 'date' : 'text'}
        inputMode={param.Tipo === 'integer' ? 'numeric' : undefined}
        onChange={(e) => onChange(e.target.value)}
        placeholder={param.Ejemplo !== undefined && param.Ejemplo !== null ? String(param.Ejemplo) : undefined}
        aria-required={param.Requerido || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, true, error)}
        invalid={!!error}
        autoComplete="off"
      />
    </FieldShell>
  )
}
