import { getLanguage } from '../../i18n/i18n'
import type { Language } from '../../../schemas/i18n'

/**
 * The Intl locale of the widgets' numbers and dates: Spanish formats in ES, US English in EN
 * (spec §9: English dates mm/dd/yy). Apart from ./charts.ts so that widgets without charts
 * do not pull Chart.js in.
 */
export const intlLocale = (lang: Language = getLanguage()): string => (lang === 'en' ? 'en-US' : 'es-ES')
