import { Button } from 'primereact/button'
import { Dialog } from 'primereact/dialog'
import type { Conflict } from './admin-api'
import { ChangeList } from './ChangeList'

/**
 * Someone saved first. Shows who and what they changed, and lets the admin choose: review
 * both sets of changes together (when the server could combine them), or take the other
 * version and drop their own. Nothing is saved from here.
 */
export function ConflictDialog<T>({ conflict, onMerge, onTakeTheirs, onHide }: { conflict: Conflict<T>; onMerge: (() => void) | null; onTakeTheirs: () => void; onHide: () => void }) {
  return (
    <Dialog
      header="Otra persona ha guardado antes"
      visible
      onHide={onHide}
      style={{ width: '38rem' }}
      breakpoints={{ '641px': '98vw' }}
      footer={
        <div className="dialog-actions">
          <Button type="button" label="Cargar su versión y descartar mis cambios" severity="danger" outlined onClick={onTakeTheirs} />
          {onMerge && <Button type="button" label="Revisar mis cambios sobre su versión" icon="pi pi-check" onClick={onMerge} autoFocus />}
        </div>
      }
    >
      <p role="alert">{conflict.message}</p>
      <p className="conflict__subtitle">Sus cambios:</p>
      <ChangeList changes={conflict.changes} empty="No hay cambios visibles respecto a tu versión." />
      {onMerge && <p className="conflict__hint">Si revisas, verás tus cambios aplicados sobre su versión; nada se guarda hasta que pulses «Guardar».</p>}
    </Dialog>
  )
}
