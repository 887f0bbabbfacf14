import { Button } from 'primereact/button'
import { Dialog } from 'primereact/dialog'
import { InputTextarea } from 'primereact/inputtextarea'
import { Message } from 'primereact/message'
import { createContext, useContext, useState, type ReactNode } from 'react'
import { PERSONAL_DATA_PERMISSION } from '../../../schemas/personal-data'
import { api, ApiError } from '../../api/client'
import { hasPermission, useLoadedManifest } from '../../api/manifest'
import { useMessages } from '../../i18n/i18n'
import { messages } from '../messages'

/** The detail's own request: what the BFF reads the record with to reveal one of its values. */
export interface RevealSource {
  endpoint: string
  params: Record<string, string | number | boolean>
}

/** The request of the record being shown, for details nested in it that show its own data (`fromData: data`). */
export const RevealSourceContext = createContext<RevealSource | undefined>(undefined)
export const useRevealSource = () => useContext(RevealSourceContext)

/**
 * The reason given for each record in this browser session: asked once per record, then sent
 * again with every reveal of that record (each reveal is audited with it). Kept in memory only.
 */
const reasons = new Map<string, string>()
/** The BFF's own bound (it answers a shorter reason with a 400). */
const REASON_MIN = 5
const recordKey = (source: RevealSource) => `${source.endpoint}?${JSON.stringify(Object.entries(source.params).sort())}`

/**
 * A personal value the BFF sent masked (issue 16): shown masked, with «Mostrar» for a user
 * holding VERDATOSPERSONALES. The first reveal of a record asks why; the BFF answers only that
 * value and records the reveal with the reason in the audit.
 */
export function MaskedValue({ masked, field, source }: { masked: ReactNode; field: string; source: RevealSource }) {
  const t = useMessages(messages)
  const manifest = useLoadedManifest()
  const [clear, setClear] = useState<string | null>(null)
  const [asking, setAsking] = useState(false)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)

  if (clear !== null) return <span translate="no" data-testid={`revealed-${field}`}>{clear || '—'}</span>
  const allowed = hasPermission(manifest, PERSONAL_DATA_PERMISSION)

  const reveal = async (why: string) => {
    setBusy(true)
    setFailure(null)
    try {
      const answer = await api.post<{ value: string | null }>('/bff/personal/reveal', { ...source, field, reason: why })
      reasons.set(recordKey(source), why)
      setAsking(false)
      setClear(answer.value ?? '')
    } catch (err) {
      setAsking(true)
      setFailure(err instanceof ApiError && err.serverMessage ? err.serverMessage : t('personal.failed'))
    } finally {
      setBusy(false)
    }
  }
  const start = () => {
    const known = reasons.get(recordKey(source))
    if (known) void reveal(known)
    else setAsking(true)
  }

  return (
    <span className="masked-value">
      <span translate="no" title={t('personal.masked')}>
        {masked}
      </span>
      {allowed && <Button type="button" text size="small" icon="pi pi-eye" label={t('personal.show')} loading={busy && !asking} onClick={start} className="masked-value__show" />}
      {asking && (
        <Dialog header={t('personal.reason.title')} visible modal onHide={() => setAsking(false)} style={{ width: '30rem' }} breakpoints={{ '641px': '95vw' }} draggable={false}>
          <form
            onSubmit={(e) => {
              e.preventDefault()
              if (reason.trim().length < REASON_MIN) setFailure(t('personal.reason.required'))
              else void reveal(reason.trim())
            }}
          >
            <label htmlFor={`reveal-reason-${field}`} className="block mb-2">
              {t('personal.reason.label')}
            </label>
            <InputTextarea id={`reveal-reason-${field}`} value={reason} onChange={(e) => setReason(e.target.value)} rows={3} maxLength={300} autoFocus className="w-full" />
            {failure && <Message severity="error" text={failure} className="mt-2 w-full" />}
            <div className="dialog-actions">
              <Button type="button" text label={t('personal.reason.cancel')} onClick={() => setAsking(false)} />
              <Button type="submit" icon="pi pi-eye" label={t('personal.reason.confirm')} loading={busy} />
            </div>
          </form>
        </Dialog>
      )}
    </span>
  )
}
