import { defineMessages } from '../i18n/i18n'

/** Texts of the layout that the shell's dictionary (i18n/es.ts) does not hold. */
export const messages = defineMessages({
  es: { 'menu.external': '(abre en otra ventana)' },
  en: { 'menu.external': '(opens in a new window)' },
})
