import type { QueryClient } from '@tanstack/react-query'
import type { Manifest } from '../../../schemas/manifest'
import type { DashboardSummary } from '../../../schemas/dashboard'
import type { MonthCount, StateCount } from '../../../schemas/business/contracts'
import type { OmieSeries } from '../../../schemas/business/energy'
import type { RenewalPage } from '../../../schemas/business/renewals'
import { api } from '../../api/client'
import { preferencesQuery } from '../../api/preferences'

/**
 * The dashboard's data, one query per call, used both by its panels and by its init step (the
 * prefetch below, run before the dashboard is drawn so its panels arrive together). No
 * `meta` here: failures are reported by the panel that shows them.
 */

/**
 * A panel that mounts on a failed load shows that failure (and its «Reintentar») instead of
 * asking again: the init step already made the call and its one retry (spec §9).
 */
const PANEL = { retryOnMount: false } as const

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
  ...PANEL,
  queryKey: ['dashboard', 'omie', 'ultima-fecha'],
  queryFn: () => api.get<{ Fecha: string }>('/api/energia/ultima-fecha'),
})

export const omieDayQuery = (day: string | undefined) => ({
  ...PANEL,
  queryKey: ['dashboard', 'omie', day],
  queryFn: () => api.get<OmieSeries>('/api/energia/historico-cierre/omie', { params: { desde: day, hasta: day } }),
})

export const renewalsQuery = () => ({
  ...PANEL,
  queryKey: ['dashboard', 'renovaciones', RENEWALS_PARAMS],
  queryFn: () => api.get<RenewalPage>('/api/renovaciones', { params: RENEWALS_PARAMS }),
})

/** The init step of the dashboard: the user's layout and every panel's data they may see, at once. */
export function prefetchDashboard(client: QueryClient, manifest: Manifest): Promise<unknown> {
  const user = manifest.user
  if (!user) return Promise.resolve()
  const omie = client.fetchQuery(omieLastDayQuery()).then(
    (last) => client.prefetchQuery(omieDayQuery(last.Fecha)),
    () => undefined,
  )
  return Promise.all([
    client.prefetchQuery(preferencesQuery(user.id)),
    client.prefetchQuery(summaryQuery()),
    client.prefetchQuery(statesQuery()),
    client.prefetchQuery(perMonthQuery()),
    omie,
    user.permissions.includes('VERRENOVACIONES') ? client.prefetchQuery(renewalsQuery()) : undefined,
  ])
}
