import { defineMessages } from '../i18n/i18n'

/** Texts of the api layer's own toasts. */
export const messages = defineMessages({
  es: {
    'held.area': 'Aprobaciones',
    'held.pending': 'El cambio necesita la aprobación de otra persona con permiso GESTORACCESS: queda pendiente y se aplicará cuando lo apruebe. Lo verás en «Mis solicitudes».',
    'held.alone': 'El cambio necesita la aprobación de otra persona con permiso GESTORACCESS y ahora mismo no hay nadie más que pueda aprobarlo: queda en espera. Lo verás en «Mis solicitudes».',
  },
  en: {
    'held.area': 'Approvals',
    'held.pending': 'This change needs the approval of another person with the GESTORACCESS permission: it is pending and will be applied once approved. You will find it in «My requests».',
    'held.alone': 'This change needs the approval of another person with the GESTORACCESS permission, and right now nobody else can approve it: it waits. You will find it in «My requests».',
  },
})
