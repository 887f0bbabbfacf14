import { defineMessages } from '../i18n/i18n'

/** Texts of the renderer's own chrome around the screens' nodes (the screens carry theirs in their JSON). */
export const messages = defineMessages({
  es: {
    'node.unknown': 'Tipo de nodo desconocido:',
    'node.unknown.upgrade': 'Esta pantalla necesita una versión más reciente del portal.',
    'widget.unknown': 'Componente desconocido:',
    'data.loadError': 'No se han podido obtener los datos.',
    'detail.title': 'Detalle',
    'detail.empty': 'No se ha encontrado el registro.',
    'tree.title': 'Jerarquía',
    'tree.expand': 'Desplegar',
    'tree.collapse': 'Plegar',
    'tree.empty': 'Sin elementos.',
  },
  en: {
    'node.unknown': 'Unknown node type:',
    'node.unknown.upgrade': 'This screen needs a newer version of the portal.',
    'widget.unknown': 'Unknown component:',
    'data.loadError': 'The data could not be retrieved.',
    'detail.title': 'Details',
    'detail.empty': 'The record was not found.',
    'tree.title': 'Hierarchy',
    'tree.expand': 'Expand',
    'tree.collapse': 'Collapse',
    'tree.empty': 'No items.',
  },
})
