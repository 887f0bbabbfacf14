import { messageIn } from '../../i18n/i18n'
import type { Language } from '../../../schemas/i18n'
import { type Breakpoint, type ItemLimits, type Placement, type StoredLayouts } from './grid-rules'
import { messages } from './messages'

/** The widgets a user can put on the dashboard (their titles: `widgetTitle`, from ./messages.ts). */
export type WidgetId = 'resumen' | 'altas-mes' | 'situacion' | 'omie' | 'renovaciones'

export interface WidgetDef {
  id: WidgetId
  /** Offered and drawn only for users with this permission. */
  permission?: string
  /** Size limits of its card in grid units (the content needs at least this much room). */
  limits: ItemLimits
}

export const CATALOG: readonly WidgetDef[] = [
  { id: 'resumen', limits: { minW: 2, minH: 1, maxH: 6 } },
  { id: 'altas-mes', limits: { minW: 2, minH: 2, maxH: 6 } },
  { id: 'situacion', limits: { minW: 2, minH: 2, maxH: 6 } },
  { id: 'omie', limits: { minW: 2, minH: 2, maxH: 6 } },
  { id: 'renovaciones', permission: 'VERRENOVACIONES', limits: { minW: 2, minH: 2, maxH: 6 } },
]

type Row = [WidgetId, number, number, number, number]
const rows = (list: Row[]): Placement[] => list.map(([i, x, y, w, h]) => ({ i, x, y, w, h }))

/** The designed layout of every breakpoint (the default until the user arranges that breakpoint). */
export const DEFAULT_LAYOUTS: Record<Breakpoint, Placement[]> = {
  lg: rows([
    ['resumen', 0, 0, 12, 1],
    ['altas-mes', 0, 1, 7, 2],
    ['situacion', 7, 1, 5, 2],
    ['omie', 0, 3, 7, 2],
    ['renovaciones', 7, 3, 5, 2],
  ]),
  md: rows([
    ['resumen', 0, 0, 10, 2],
    ['altas-mes', 0, 2, 6, 2],
    ['situacion', 6, 2, 4, 2],
    ['omie', 0, 4, 6, 2],
    ['renovaciones', 6, 4, 4, 2],
  ]),
  sm: rows([
    ['resumen', 0, 0, 6, 2],
    ['altas-mes', 0, 2, 6, 2],
    ['situacion', 0, 4, 3, 2],
    ['renovaciones', 3, 4, 3, 2],
    ['omie', 0, 6, 6, 2],
  ]),
  xs: rows([
    ['resumen', 0, 0, 4, 2],
    ['altas-mes', 0, 2, 4, 2],
    ['situacion', 0, 4, 4, 2],
    ['omie', 0, 6, 4, 2],
    ['renovaciones', 0, 8, 4, 2],
  ]),
  xxs: rows([
    ['resumen', 0, 0, 2, 2],
    ['altas-mes', 0, 2, 2, 2],
    ['situacion', 0, 4, 2, 2],
    ['omie', 0, 6, 2, 2],
    ['renovaciones', 0, 8, 2, 2],
  ]),
}

export function widgetDef(id: string): WidgetDef | undefined {
  return CATALOG.find((w) => w.id === id)
}

/** A widget's title (its card heading and its entry in the "Añadir widget" menu), in the given language. */
export function widgetTitle(id: WidgetId, lang?: Language): string {
  return messageIn(messages, `widget.${id}`, undefined, lang)
}

export function limitsOf(id: string): ItemLimits {
  return widgetDef(id)?.limits ?? {}
}

/** The widgets this user may see, in catalogue order. */
export function allowedWidgets(permissions: readonly string[]): WidgetDef[] {
  return CATALOG.filter((w) => !w.permission || permissions.includes(w.permission))
}

/** Only known widgets the user may see, each once. */
export function keepAllowed(ids: readonly string[], allowed: readonly WidgetDef[]): WidgetId[] {
  const ok = new Set<string>(allowed.map((w) => w.id))
  return [...new Set(ids)].filter((id): id is WidgetId => ok.has(id))
}

/** The default dashboard: every allowed widget, no breakpoint arranged yet. */
export function defaultState(allowed: readonly WidgetDef[]): { widgets: WidgetId[]; stored: StoredLayouts } {
  return { widgets: allowed.map((w) => w.id), stored: {} }
}
