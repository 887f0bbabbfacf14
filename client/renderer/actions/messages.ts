import { defineMessages } from '../../i18n/i18n'

/** Texts of the actions' dialogs and confirmations. */
export const messages = defineMessages({
  es: {
    'confirm.title': 'Confirmar',
    'confirm.accept': 'Sí, continuar',
    'confirm.reject': 'Cancelar',
    'dialog.close': 'Cerrar',
    'reveal.copy': 'Copiar',
    'reveal.copied': 'Copiada',
    'reveal.done': 'Hecho',
    'download.name': 'documento',
  },
  en: {
    'confirm.title': 'Confirm',
    'confirm.accept': 'Yes, continue',
    'confirm.reject': 'Cancel',
    'dialog.close': 'Close',
    'reveal.copy': 'Copy',
    'reveal.copied': 'Copied',
    'reveal.done': 'Done',
    'download.name': 'document',
  },
})
