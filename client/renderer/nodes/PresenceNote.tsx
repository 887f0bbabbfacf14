import type { RecordRef } from '../../../schemas/catalogue/records'
import { useRecordPresence } from '../../api/presence'
import { useI18n, useMessages } from '../../i18n/i18n'
import { messages } from '../messages'

const RECORD_NOUNS = new Set(['contrato', 'usuario', 'agente', 'apiUsuario'])

/**
 * «Ana está viendo este contrato»: who else has this record open now (never the user themselves),
 * said politely (a live region) and kept out of the way when nobody does.
 */
export function PresenceNote({ record }: { record: RecordRef }) {
  const { lang } = useI18n()
  const t = useMessages(messages)
  const viewers = useRecordPresence(record)
  const noun = t(RECORD_NOUNS.has(record.entity) ? (`presence.record.${record.entity}` as 'presence.record.contrato') : 'presence.record.other')
  const names = new Intl.ListFormat(lang, { type: 'conjunction' }).format(viewers.map((v) => v.name))
  return (
    <p className="detail-presence" role="status" aria-live="polite" hidden={viewers.length === 0}>
      {viewers.length > 0 && (
        <>
          <i className="pi pi-eye" aria-hidden="true" /> {t(viewers.length === 1 ? 'presence.one' : 'presence.many', { names, record: noun })}
        </>
      )}
    </p>
  )
}
