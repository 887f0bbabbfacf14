import { ConfirmDialog, confirmDialog } from 'primereact/confirmdialog'
import { messageIn } from '../i18n/i18n'
import { messages } from './messages'

/** Asks for confirmation in the dialog `ConfirmHost` mounts; resolves true on accept, false on reject or close. */
export function confirm(message: string, header = messageIn(messages, 'confirm.title')): Promise<boolean> {
  return new Promise((resolve) => {
    confirmDialog({
      message,
      header,
      icon: 'pi pi-exclamation-triangle',
      acceptLabel: messageIn(messages, 'confirm.accept'),
      rejectLabel: messageIn(messages, 'confirm.reject'),
      // A destructive step is never one Enter away.
      defaultFocus: 'reject',
      acceptClassName: 'p-button-danger',
      accept: () => resolve(true),
      reject: () => resolve(false),
      onHide: () => resolve(false),
    })
  })
}

/** The one confirmation dialog of the signed-in app, mounted once by its layout; `confirm()` opens it. */
export function ConfirmHost() {
  return <ConfirmDialog style={{ width: '25vw' }} breakpoints={{ '960px': '60vw', '641px': '95vw' }} />
}
