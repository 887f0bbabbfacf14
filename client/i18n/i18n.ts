import { useSyncExternalStore } from 'react'
import { addLocale, locale as primeLocale } from 'primereact/api'
import type { Language, LocalizedText } from '../../schemas/i18n'
import { en } from './en'
import { es, type MessageKey } from './es'

const STORAGE_KEY = 'portal.lang'
const dictionaries: Record<Language, Record<MessageKey, string>> = { es, en }

// PrimeReact locales of spec §9: Spanish dd/mm/yy with Monday first; English mm/dd/yy with Sunday first.
addLocale('es', {
  firstDayOfWeek: 1,
  dateFormat: 'dd/mm/yy',
  dayNames: ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'],
  dayNamesShort: ['dom', 'lun', 'mar', 'mié', 'jue', 'vie', 'sáb'],
  dayNamesMin: ['D', 'L', 'M', 'X', 'J', 'V', 'S'],
  monthNames: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
  monthNamesShort: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'],
  today: 'Hoy',
  clear: 'Limpiar',
  weekHeader: 'Sm',
  accept: 'Sí',
  reject: 'No',
  choose: 'Elegir',
  upload: 'Subir',
  cancel: 'Cancelar',
  emptyMessage: 'Sin resultados',
  emptyFilterMessage: 'Sin resultados',
  apply: 'Aplicar',
  matchAll: 'Todas',
  matchAny: 'Alguna',
  addRule: 'Añadir regla',
  removeRule: 'Quitar regla',
  startsWith: 'Empieza por',
  contains: 'Contiene',
  notContains: 'No contiene',
  endsWith: 'Termina en',
  equals: 'Igual a',
  notEquals: 'Distinto de',
  noFilter: 'Sin filtro',
  lt: 'Menor que',
  lte: 'Menor o igual que',
  gt: 'Mayor que',
  gte: 'Mayor o igual que',
  dateIs: 'Fecha igual a',
  dateIsNot: 'Fecha distinta de',
  dateBefore: 'Fecha anterior a',
  dateAfter: 'Fecha posterior a',
  passwordPrompt: 'Escribe una contraseña',
  weak: 'Débil',
  medium: 'Media',
  strong: 'Fuerte',
  aria: {
    trueLabel: 'Sí',
    falseLabel: 'No',
    nullLabel: 'Sin seleccionar',
    star: '1 estrella',
    stars: '{star} estrellas',
    selectAll: 'Seleccionar todos',
    unselectAll: 'Quitar todos',
    close: 'Cerrar',
    previous: 'Anterior',
    next: 'Siguiente',
    navigation: 'Navegación',
    scrollTop: 'Volver arriba',
    moveTop: 'Mover al principio',
    moveUp: 'Subir',
    moveDown: 'Bajar',
    moveBottom: 'Mover al final',
    moveToTarget: 'Mover al destino',
    moveToSource: 'Mover al origen',
    moveAllToTarget: 'Mover todos al destino',
    moveAllToSource: 'Mover todos al origen',
    pageLabel: 'Página {page}',
    otpLabel: 'Carácter {0}',
    firstPageLabel: 'Primera página',
    lastPageLabel: 'Última página',
    nextPageLabel: 'Página siguiente',
    prevPageLabel: 'Página anterior',
    rowsPerPageLabel: 'Filas por página',
    jumpToPageDropdownLabel: 'Filas por página',
    jumpToPageInputLabel: 'Ir a la página',
    selectRow: 'Seleccionar fila',
    unselectRow: 'Quitar fila',
    expandRow: 'Desplegar fila',
    collapseRow: 'Plegar fila',
    showFilterMenu: 'Mostrar filtro',
    hideFilterMenu: 'Ocultar filtro',
    filterOperator: 'Operador del filtro',
    filterConstraint: 'Condición del filtro',
    editRow: 'Editar fila',
    saveEdit: 'Guardar',
    cancelEdit: 'Cancelar',
    listView: 'Vista de lista',
    gridView: 'Vista de cuadrícula',
    slide: 'Diapositiva',
    slideNumber: '{slideNumber}',
    zoomImage: 'Ampliar imagen',
    zoomIn: 'Acercar',
    zoomOut: 'Alejar',
    rotateRight: 'Girar a la derecha',
    rotateLeft: 'Girar a la izquierda',
    listLabel: 'Lista de opciones',
    // not in the typings but read by the Password component
    ...({ passwordShow: 'Mostrar contraseña', passwordHide: 'Ocultar contraseña' } as object),
  },
})
addLocale('en', { firstDayOfWeek: 0, dateFormat: 'mm/dd/yy' })

function initial(): Language {
  try {
    const stored = localStorage.getItem(STORAGE_KEY)
    if (stored === 'en' || stored === 'es') return stored
  } catch {
    // storage unavailable
  }
  return 'es'
}

let current: Language = initial()
const listeners = new Set<() => void>()
primeLocale(current)
if (typeof document !== 'undefined') document.documentElement.lang = current

export function getLanguage(): Language {
  return current
}

export function setLanguage(lang: Language): void {
  if (lang === current) return
  current = lang
  try {
    localStorage.setItem(STORAGE_KEY, lang)
  } catch {
    // storage unavailable: the choice lasts for this tab
  }
  primeLocale(lang)
  document.documentElement.lang = lang
  for (const l of listeners) l()
}

export function translate(key: MessageKey, vars?: Record<string, string | number>, lang: Language = current): string {
  let text = dictionaries[lang][key] ?? es[key]
  if (vars) for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{${k}}`, String(v))
  return text
}

/** A text of a screen or the menu in the current language, Spanish when untranslated. */
export function localized(text: LocalizedText | string | undefined, lang: Language = current): string {
  if (text === undefined) return ''
  if (typeof text === 'string') return text
  return (lang === 'en' ? text.en : undefined) ?? text.es
}

const subscribe = (fn: () => void) => {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

/** The current language and a translator; re-renders when the language changes. */
export function useI18n() {
  const lang = useSyncExternalStore(subscribe, getLanguage, getLanguage)
  return {
    lang,
    setLanguage,
    t: (key: MessageKey, vars?: Record<string, string | number>) => translate(key, vars, lang),
    l: (text: LocalizedText | string | undefined) => localized(text, lang),
  }
}
