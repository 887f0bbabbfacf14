import { defineMessages } from '../i18n/i18n'

/** Texts of the floor's own pieces: the confirmation dialog, the yes/no of boolean values, the view states. */
export const messages = defineMessages({
  es: {
    'confirm.title': 'Confirmar',
    'confirm.accept': 'Sí, continuar',
    'confirm.reject': 'Cancelar',
    'value.yes': 'Sí',
    'value.no': 'No',
    'state.loading': 'Cargando…',
    'state.retry': 'Reintentar',
    'state.filteredEmpty': 'No hay resultados con estos filtros.',
    'state.clearFilters': 'Quitar filtros',
    'state.empty': 'Todavía no hay nada aquí.',
  },
  en: {
    'confirm.title': 'Confirm',
    'confirm.accept': 'Yes, continue',
    'confirm.reject': 'Cancel',
    'value.yes': 'Yes',
    'value.no': 'No',
    'state.loading': 'Loading…',
    'state.retry': 'Retry',
    'state.filteredEmpty': 'No results match these filters.',
    'state.clearFilters': 'Remove filters',
    'state.empty': 'Nothing here yet.',
  },
})
