import { Button } from 'primereact/button'
import { createContext, useContext, useState, type ReactNode } from 'react'
import { PERSONAL_DATA_PERMISSION } from '../../../schemas/personal-data'
import { api, ApiError } from '../../api/client'
import { hasPermission, useLoadedManifest } from '../../api/manifest'
import { useMessages } from '../../i18n/i18n'
import { ReasonDialog } from '../actions/ReasonDialog'
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
        <ReasonDialog
          inputId={`reveal-reason-${field}`}
          title={t('personal.reason.title')}
          label={t('personal.reason.label')}
          confirmLabel={t('personal.reason.confirm')}
          confirmIcon="pi pi-eye"
          busy={busy}
          failure={failure}
          onConfirm={(why) => void reveal(why)}
          onCancel={() => setAsking(false)}
        />
      )}
    </span>
  )
}
