import { Button } from 'primereact/button'
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { useI18n, useMessages } from '../../i18n/i18n'
import { intlLocale } from '../../ui/format'
import { messages } from './messages'

export interface ChartTable {
  columns: string[]
  rows: (string | number)[][]
}

/** Rows the data table draws: a year of quarter-hour prices (35 000) would freeze the page; the export has them all. */
export const MAX_TABLE_ROWS = 2000

/**
 * A chart with what a chart needs to be usable by everyone: a heading, a text summary for
 * screen readers, and a "Ver datos" ("Show data") toggle that shows the same figures as a table (a
 * scrollable region reachable by keyboard). Extra buttons (reset zoom, export) come in `actions`.
 */
export function ChartFrame({ title, summary, table, height = 300, actions, children }: { title: string; summary: string; table: ChartTable; height?: number; actions?: ReactNode; children: ReactNode }) {
  const t = useMessages(messages)
  const { lang } = useI18n()
  const [showTable, setShowTable] = useState(false)
  const id = useId()
  const canvasBox = useRef<HTMLDivElement>(null)
  // The box is the named image; the chart library's canvas (role img, no name) is hidden from assistive tech.
  useEffect(() => {
    canvasBox.current?.querySelectorAll('canvas').forEach((c) => c.setAttribute('aria-hidden', 'true'))
  })
  return (
    <figure className="chart-frame" aria-labelledby={`${id}-title`}>
      <figcaption className="chart-frame__header">
        <h3 id={`${id}-title`} className="chart-frame__title">
          {title}
        </h3>
        <span className="chart-frame__actions">
          {actions}
          <Button type="button" size="small" text icon={showTable ? 'pi pi-chart-line' : 'pi pi-table'} label={showTable ? t('chart.showChart') : t('chart.showData')} aria-expanded={showTable} onClick={() => setShowTable(!showTable)} />
        </span>
      </figcaption>
      <p className="p-sr-only">{summary}</p>
      {showTable ? (
        <div className="chart-frame__table" tabIndex={0} role="region" aria-label={t('chart.dataOf', { title })}>
          <table className="simple-table">
            <thead>
              <tr>
                {table.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody translate="no">
              {table.rows.slice(0, MAX_TABLE_ROWS).map((r, i) => (
                <tr key={i}>
                  {r.map((v, j) => (
                    <td key={j}>{typeof v === 'number' ? v.toLocaleString(intlLocale(lang), { maximumFractionDigits: 4 }) : v}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {table.rows.length > MAX_TABLE_ROWS && <p className="chart-frame__more">{t('chart.moreRows', { shown: MAX_TABLE_ROWS.toLocaleString(intlLocale(lang)), total: table.rows.length.toLocaleString(intlLocale(lang)) })}</p>}
        </div>
      ) : (
        <div ref={canvasBox} className="chart-frame__canvas" style={{ height }} role="img" aria-label={summary}>
          {children}
        </div>
      )}
    </figure>
  )
}
