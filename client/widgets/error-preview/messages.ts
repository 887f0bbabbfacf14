import { defineMessages } from '../../i18n/i18n'

/** The error-page preview's texts (the page itself speaks through the shell's dictionary). */
export const messages = defineMessages({
  es: {
    'status.401': '401 · sin permiso',
    'status.403': '403 · acción denegada',
    'status.404': '404 · no encontrada',
    'status.500': '500 · error del servidor',
    'status.503': '503 · no disponible',
    title: 'Vista previa',
    choices: 'Estado que se previsualiza',
    caption:
      'Así ve el usuario la página de error con el estado {status}. Es el mismo componente que muestra el portal; el botón lleva al inicio (o al inicio de sesión si no hay sesión).',
    frame: 'Vista previa del estado {status}',
  },
  en: {
    'status.401': '401 · unauthorized',
    'status.403': '403 · forbidden',
    'status.404': '404 · not found',
    'status.500': '500 · server error',
    'status.503': '503 · unavailable',
    title: 'Preview',
    choices: 'Status to preview',
    caption:
      'This is how users see the error page with status {status}. It is the same component the portal shows; its button leads to the home page (or to sign-in when there is no session).',
    frame: 'Preview of status {status}',
  },
})
