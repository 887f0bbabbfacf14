import { intlLocale } from '../../ui/format'

/**
 * The charts' look, apart from the chart library (./charts.ts) so a widget can build its chart
 * options before that library has loaded (the dashboard loads it lazily, ./lazy-charts.tsx):
 * colours from the brand theme and the current language's number formats (ui/format.ts).
 */

/** A CSS variable of the current theme (brand primary, text colours…). */
export function themeColor(name: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim()
  return v || fallback
}

/** Series colours: the brand's primary first, then a palette readable in light and dark themes. */
export function seriesColors(): string[] {
  return [themeColor('--primary-color', '#047857'), '#2563eb', '#d97706', '#9333ea', '#dc2626', '#0891b2', '#65a30d', '#db2777']
}

/** Period colours P1–P6, the same in every chart of the portal. */
export const PERIOD_COLORS = ['#b91c1c', '#d97706', '#2563eb', '#0891b2', '#65a30d', '#7c3aed'] as const

/** Defaults shared by every chart: theme text colours, grid, tooltips in the current language's formats. */
export function baseOptions() {
  const text = themeColor('--text-color', '#374151')
  const muted = themeColor('--text-color-secondary', '#6b7280')
  const grid = themeColor('--surface-border', '#e5e7eb')
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false as const,
    locale: intlLocale(),
    color: text,
    plugins: {
      legend: { labels: { color: text } },
      tooltip: { mode: 'index' as const, intersect: false },
    },
    scales: {
      x: { ticks: { color: muted }, grid: { color: grid } },
      y: { ticks: { color: muted }, grid: { color: grid } },
    },
  }
}
