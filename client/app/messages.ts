import { defineMessages } from '../i18n/i18n'

/** Texts of the app's frame: start-up, route checks. */
export const messages = defineMessages({
  es: {
    'boot.loading': 'Cargando',
    'boot.unreachable': 'No se ha podido conectar con el portal.',
    'boot.retry': 'Reintentar',
    'check.duplicate.area': 'Alta de contrato',
    'check.duplicate.message': 'No se ha podido obtener el contrato',
    'preview.title': 'Vista previa de pantalla',
    'preview.alone': 'Esta página muestra, dentro del estudio de pantallas, la pantalla que se está editando.',
    'preview.openStudio': 'Abrir el estudio de pantallas',
    'preview.waiting': 'Esperando la pantalla del estudio…',
    'preview.readOnly': 'Vista previa: las acciones se muestran pero no se ejecutan.',
    'preview.as': 'Como la vería {name}',
    'preview.asMe': 'Como la verías tú',
    'preview.denied': '{name} no puede abrir esta pantalla (le falta el permiso {permission}).',
    'preview.error': 'No se puede mostrar la vista previa: {error}',
  },
  en: {
    'boot.loading': 'Loading',
    'boot.unreachable': 'The portal cannot be reached.',
    'boot.retry': 'Retry',
    'check.duplicate.area': 'New contract',
    'check.duplicate.message': 'The contract could not be retrieved',
    'preview.title': 'Screen preview',
    'preview.alone': 'Inside the screen studio, this page shows the screen being edited.',
    'preview.openStudio': 'Open the screen studio',
    'preview.waiting': 'Waiting for the studio’s screen…',
    'preview.readOnly': 'Preview: actions are shown but not run.',
    'preview.as': 'As {name} would see it',
    'preview.asMe': 'As you would see it',
    'preview.denied': '{name} cannot open this screen (they lack the permission {permission}).',
    'preview.error': 'The preview cannot be shown: {error}',
  },
})
