import { defineMessages } from '../i18n/i18n'

/** Texts of the layout that the shell's dictionary (i18n/es.ts) does not hold. */
export const messages = defineMessages({
  es: {
    'menu.external': '(abre en otra ventana)',
    'viewAs.area': 'Ver como',
    'viewAs.title': 'Estás viendo el portal como {name}.',
    'viewAs.readOnly': 'Es de solo lectura: no se puede cambiar nada.',
    'viewAs.permissionsOnly': 'El servicio no permite ver sus datos como él: ves los datos con tu acceso, con sus permisos y su menú.',
    'viewAs.leave': 'Volver a {name}',
  },
  en: {
    'menu.external': '(opens in a new window)',
    'viewAs.area': 'View as',
    'viewAs.title': 'You are viewing the portal as {name}.',
    'viewAs.readOnly': 'It is read-only: nothing can be changed.',
    'viewAs.permissionsOnly': 'The service cannot show their data as they see it: you see the data your own access allows, with their permissions and menu.',
    'viewAs.leave': 'Back to {name}',
  },
})
