import { Button } from 'primereact/button'
import { Dialog } from 'primereact/dialog'
import { InputText } from 'primereact/inputtext'
import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import { useLoadedManifest } from '../api/manifest'
import { screenPath } from '../api/screen-path'
import { useI18n } from '../i18n/i18n'
import { describedBy } from '../ui/described-by'
import { FieldShell } from '../ui/FieldShell'

/** The dev-only "Contrato" entry: a modal, non-closable dialog asking for a contract code (spec §2). */
export function ContractCodeDialog({ visible, onDone }: { visible: boolean; onDone: () => void }) {
  const { t } = useI18n()
  const navigate = useNavigate()
  const { routes } = useLoadedManifest()
  const [code, setCode] = useState('')
  const [error, setError] = useState(false)

  const go = (e: FormEvent) => {
    e.preventDefault()
    const value = code.trim()
    if (!value) {
      setError(true)
      return
    }
    setCode('')
    setError(false)
    onDone()
    // The contract detail's path comes from the manifest (its screen file declares it); every signed-in user has it.
    const target = screenPath(routes, 'contrato-detalle', { referencia: value })
    if (target) navigate(target)
  }

  return (
    <Dialog
      header={t('contractDialog.title')}
      visible={visible}
      modal
      closable={false}
      closeOnEscape={false}
      draggable={false}
      style={{ width: '25vw' }}
      breakpoints={{ '960px': '60vw', '641px': '92vw' }}
      onHide={onDone}
    >
      <form onSubmit={go} className="contract-code-form" noValidate>
        <FieldShell id="contract-code" label={t('contractDialog.label')} error={error ? t('contractDialog.required') : undefined}>
          <InputText id="contract-code" value={code} autoFocus invalid={error} aria-describedby={describedBy('contract-code', null, error)} onChange={(e) => setCode(e.target.value)} />
        </FieldShell>
        <div className="dialog-actions">
          <Button type="button" label={t('contractDialog.cancel')} text onClick={onDone} />
          <Button type="submit" label={t('contractDialog.go')} icon="pi pi-arrow-right" iconPos="right" />
        </div>
      </form>
    </Dialog>
  )
}
