import { Button } from 'primereact/button'
import { Dialog } from 'primereact/dialog'
import { useMessages } from '../../i18n/i18n'
import type { Conflict } from './admin-api'
import { ChangeList } from './ChangeList'
import { messages } from './messages'

/**
 * Someone saved first. Shows who and what they changed, and lets the admin choose: review
 * both sets of changes together (when the server could combine them), or take the other
 * version and drop their own. Nothing is saved from here.
 */
export function ConflictDialog<T>({ conflict, onMerge, onTakeTheirs, onHide }: { conflict: Conflict<T>; onMerge: (() => void) | null; onTakeTheirs: () => void; onHide: () => void }) {
  const t = useMessages(messages)
  return (
    <Dialog
      header={t('conflict.title')}
      visible
      onHide={onHide}
      style={{ width: '38rem' }}
      breakpoints={{ '641px': '98vw' }}
      footer={
        <div className="dialog-actions">
          <Button type="button" label={t('conflict.takeTheirs')} severity="danger" outlined onClick={onTakeTheirs} />
          {onMerge && <Button type="button" label={t('conflict.merge')} icon="pi pi-check" onClick={onMerge} autoFocus />}
        </div>
      }
    >
      <p role="alert">{conflict.message}</p>
      <p className="conflict__subtitle">{t('conflict.theirChanges')}</p>
      <ChangeList changes={conflict.changes} empty={t('conflict.noChanges')} />
      {onMerge && <p className="conflict__hint">{t('conflict.hint')}</p>}
    </Dialog>
  )
}
