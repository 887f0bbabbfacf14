import { Button } from 'primereact/button'
import { Dialog } from 'primereact/dialog'
import { Message } from 'primereact/message'
import { useState } from 'react'
import type { AfterSpec } from '../../../schemas/screen'
import { useI18n, useMessages } from '../../i18n/i18n'
import { messages } from './messages'
import { closeRevealed, useRevealed } from './reveal-store'

/** Shows a secret once (a new API key) with a copy button; it cannot be shown again. */
export function RevealDialog({ value, spec, onClose }: { value: string; spec: NonNullable<AfterSpec['reveal']>; onClose: () => void }) {
  const { l } = useI18n()
  const t = useMessages(messages)
  const [copied, setCopied] = useState(false)
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

/** Draws the secret an action revealed, wherever that action now is (mounted once, in the app shell). */
export function RevealHost() {
  const revealed = useRevealed()
  return revealed ? <RevealDialog key={revealed.value} value={revealed.value} spec={revealed.spec} onClose={closeRevealed} /> : null
}
