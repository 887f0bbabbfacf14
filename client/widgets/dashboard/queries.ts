import type { QueryClient } from '@tanstack/react-query'
import type { Manifest } from '../../../schemas/manifest'
import type { DashboardSummary } from '../../../schemas/dashboard'
import type { MonthCount, StateCount } from '../../../schemas/business/contracts'
import type { OmieSeries } from '../../../schemas/business/energy'
import type { RenewalPage } from '../../../schemas/business/renewals'
import { api } from '../../api/client'
import { preferencesQuery } from '../../api/preferences'
import { allowedWidgets, defaultState, keepAllowed } from './catalog'
import { parsePreference, PREFERENCE_KEY } from './grid-rules'

/**
 * The dashboard's data, one query per call, used both by its panels and by its init step (the
 * prefetch below, run before the dashboard is drawn so its panels arrive together). Each
 * query's `meta` says how its failure is toasted, once, by whichever of the two made the call.
 */

/**
 * A panel that mounts on a failed load shows that failure (and its «Reintentar») instead of
 * asking again: the init step already made the call and its one retry (spec §9).
 */
const PANEL = { retryOnMount: false, meta: { reportErrors: true } } as const
/** OMIE's failures are titled by their own area (the catalogue's is «Energía»). */
const OMIE_PANEL = { retryOnMount: false, meta: { errorArea: 'OMIE' } } as const

const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`

/** The last twelve months: from the first day of the month eleven months ago to today. */
export function lastTwelveMonths(today: Date = new Date()): { desde: string; hasta: string } {
  return { desde: iso(new Date(today.getFullYear(), today.getMonth() - 11, 1)), hasta: iso(today) }
}

/** The open sub-states: próxima renovación, oferta enviada, oferta aceptada. */
export const RENEWALS_PARAMS = {
  pageSize: 5,
  sortColumn: 'FechaRenovacion',
  sortOrder: 'asc',
  filterColumns: ['SubestadoId'],
  filterQueries: ['1,2,3'],
} as const

export const summaryQuery = () => ({
  ...PANEL,
  queryKey: ['dashboard', 'resumen'],
  queryFn: () => api.get<DashboardSummary>('/api/utility/dashboard/resumen'),
})

export const statesQuery = () => ({
  ...PANEL,
  queryKey: ['dashboard', 'situacion-contratos'],
  queryFn: () => api.get<StateCount[]>('/api/contract/situacion-contratos'),
})

export const perMonthQuery = (range = lastTwelveMonths()) => ({
  ...PANEL,
  queryKey: ['dashboard', 'cantidad-por-mes', range.desde, range.hasta],
  queryFn: () => api.get<MonthCount[]>('/api/contract/cantidad-por-mes', { params: range }),
})

export const omieLastDayQuery = () => ({
  ...OMIE_PANEL,
  queryKey: ['dashboard', 'omie', 'ultima-fecha'],
  queryFn: () => api.get<{ Fecha: string }>('/api/energia/ultima-fecha'),
})

export const omieDayQuery = (day: string | undefined) => ({
  ...OMIE_PANEL,
  queryKey: ['dashboard', 'omie', day],
  queryFn: () => api.get<OmieSeries>('/api/energia/historico-cierre/omie', { params: { desde: day, hasta: day } }),
})

export const renewalsQuery = () => ({
  ...PANEL,
  queryKey: ['dashboard', 'renovaciones', RENEWALS_PARAMS],
  queryFn: () => api.get<RenewalPage>('/api/renovaciones', { params: RENEWALS_PARAMS }),
})

/**
 * The init step of the dashboard: the user's layout, then the data of the panels it shows
 * (a panel the user removed is not asked for), at once.
 */
export async function prefetchDashboard(client: QueryClient, manifest: Manifest): Promise<unknown> {
  const user = manifest.user
  if (!user) return
  // A failed read leaves the default panels: the dashboard itself reports it when it asks again.
  const preferences = await client.fetchQuery(preferencesQuery(user.id)).catch(() => undefined)
  const allowed = allowedWidgets(user.permissions)
  const parsed = parsePreference(preferences?.find((p) => p.Clave === PREFERENCE_KEY)?.Valor)
  const shown = new Set<string>(parsed?.widgets ? keepAllowed(parsed.widgets, allowed) : defaultState(allowed).widgets)
  const panels: Record<string, () => Promise<unknown>> = {
    resumen: () => client.prefetchQuery(summaryQuery()),
    situacion: () => client.prefetchQuery(statesQuery()),
    'altas-mes': () => client.prefetchQuery(perMonthQuery()),
    omie: () =>
      client.fetchQuery(omieLastDayQuery()).then(
        (last) => client.prefetchQuery(omieDayQuery(last.Fecha)),
        () => undefined,
      ),
    renovaciones: () => client.prefetchQuery(renewalsQuery()),
  }
  return Promise.all(Object.entries(panels).map(([id, load]) => (shown.has(id) ? load() : undefined)))
}
