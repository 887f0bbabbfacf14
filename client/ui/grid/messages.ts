import { defineMessages } from '../../i18n/i18n'

/** Texts of the grid's own chrome: the pager and the selection checkboxes. */
export const messages = defineMessages({
  es: {
    'pager.first': 'Primera página',
    'pager.prev': 'Página anterior',
    'pager.next': 'Página siguiente',
    'pager.last': 'Última página',
    'pager.page': 'Página {page}',
    'pager.rowsPerPage': 'Filas por página',
    'pager.report': '{first}–{last} de {total}',
    'select.page': 'Seleccionar las filas de esta página',
    'select.row': 'Seleccionar fila {n}',
    empty: 'No hay filas.',
  },
  en: {
    'pager.first': 'First page',
    'pager.prev': 'Previous page',
    'pager.next': 'Next page',
    'pager.last': 'Last page',
    'pager.page': 'Page {page}',
    'pager.rowsPerPage': 'Rows per page',
    'pager.report': '{first}–{last} of {total}',
    'select.page': 'Select the rows on this page',
    'select.row': 'Select row {n}',
    empty: 'No rows.',
  },
})
