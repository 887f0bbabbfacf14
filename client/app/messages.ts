import { defineMessages } from '../i18n/i18n'

/** Texts of the app's frame: start-up, route checks. */
export const messages = defineMessages({
  es: {
    'boot.loading': 'Cargando',
    'boot.unreachable': 'No se ha podido conectar con el portal.',
    'boot.retry': 'Reintentar',
    'check.duplicate.area': 'Alta de contrato',
    'check.duplicate.message': 'No se ha podido obtener el contrato',
  },
  en: {
    'boot.loading': 'Loading',
    'boot.unreachable': 'The portal cannot be reached.',
    'boot.retry': 'Retry',
    'check.duplicate.area': 'New contract',
    'check.duplicate.message': 'The contract could not be retrieved',
  },
})
