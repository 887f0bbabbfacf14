import { defineMessages } from '../i18n/i18n'

/** Texts of the floor's own pieces: the confirmation dialog and the yes/no of boolean values. */
export const messages = defineMessages({
  es: {
    'confirm.title': 'Confirmar',
    'confirm.accept': 'Sí, continuar',
    'confirm.reject': 'Cancelar',
    'value.yes': 'Sí',
    'value.no': 'No',
  },
  en: {
    'confirm.title': 'Confirm',
    'confirm.accept': 'Yes, continue',
    'confirm.reject': 'Cancel',
    'value.yes': 'Yes',
    'value.no': 'No',
  },
})
