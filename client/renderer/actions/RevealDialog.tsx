import { Button } from 'primereact/button'
import { Dialog } from 'primereact/dialog'
import { Message } from 'primereact/message'
import { useState } from 'react'
import { useI18n, useMessages } from '../../i18n/i18n'
import { useReturnFocus } from '../../ui/return-focus'
import { messages } from './messages'
import type { Revealed } from './reveal-store'

/** Shows a secret once (a new API key) with a copy button; it cannot be shown again. */
export function RevealDialog({ value, spec, onClose }: { value: string; spec: Revealed['spec']; onClose: () => void }) {
  const { l } = useI18n()
  const t = useMessages(messages)
  const [copied, setCopied] = useState(false)
  useReturnFocus()
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied(true)
    } catch {
      // clipboard unavailable: the value stays selectable in the field
    }
  }
  return (
    <Dialog header={l(spec.title)} visible modal onHide={onClose} style={{ width: '32rem' }} breakpoints={{ '641px': '95vw' }} draggable={false}>
      {spec.message && <Message severity="warn" text={l(spec.message)} className="reveal-message" />}
      <div className="reveal-value">
        <code data-testid="revealed-value">{value}</code>
        <Button type="button" icon={copied ? 'pi pi-check' : 'pi pi-copy'} label={copied ? t('reveal.copied') : t('reveal.copy')} onClick={() => void copy()} />
      </div>
      <div className="dialog-actions">
        <Button type="button" label={t('reveal.done')} onClick={onClose} />
      </div>
    </Dialog>
  )
}
