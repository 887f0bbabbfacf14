import { defineMessages } from '../../i18n/i18n'

/** Texts of the shared chart frame (every chart of the widgets uses it). */
export const messages = defineMessages({
  es: {
    'chart.showChart': 'Ver gráfico',
    'chart.showData': 'Ver datos',
    'chart.dataOf': 'Datos: {title}',
    'chart.moreRows': 'Se muestran las primeras {shown} filas de {total}; la exportación a Excel las incluye todas.',
  },
  en: {
    'chart.showChart': 'Show chart',
    'chart.showData': 'Show data',
    'chart.dataOf': 'Data: {title}',
    'chart.moreRows': 'The first {shown} rows of {total} are shown; the Excel export has them all.',
  },
})
