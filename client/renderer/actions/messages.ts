import { defineMessages } from '../../i18n/i18n'

/** Texts of the actions' dialogs and downloads (the confirmation's are ui/'s). */
export const messages = defineMessages({
  es: {
    'dialog.close': 'Cerrar',
    'reveal.copy': 'Copiar',
    'reveal.copied': 'Copiada',
    'reveal.done': 'Hecho',
    'download.name': 'documento',
    'viewAs.readOnly': 'Solo lectura mientras ves el portal como otro usuario',
  },
  en: {
    'dialog.close': 'Close',
    'reveal.copy': 'Copy',
    'reveal.copied': 'Copied',
    'reveal.done': 'Done',
    'download.name': 'document',
    'viewAs.readOnly': 'Read-only while you view the portal as another user',
  },
})
