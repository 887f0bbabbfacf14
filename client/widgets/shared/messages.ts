import { defineMessages } from '../../i18n/i18n'

/** Texts of the shared chart frame (every chart of the widgets uses it). */
export const messages = defineMessages({
  es: {
    'chart.showChart': 'Ver gráfico',
    'chart.showData': 'Ver datos',
    'chart.dataOf': 'Datos: {title}',
  },
  en: {
    'chart.showChart': 'Show chart',
    'chart.showData': 'Show data',
    'chart.dataOf': 'Data: {title}',
  },
})
