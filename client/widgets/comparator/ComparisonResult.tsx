import { Button } from 'primereact/button'
import { useMemo, type Ref } from 'react'
import { Bar } from '../shared/charts'
import { Link } from 'react-router-dom'
import { useScreenPath } from '../../api/screen-path'
import { useTheme } from '../../ui/theme'
import { getLanguage, useI18n, useMessages } from '../../i18n/i18n'
import { formatValue, formatNumber } from '../../ui/format'
import { ChartFrame } from '../shared/ChartFrame'
import { baseOptions, seriesColors } from '../shared/chart-theme'
import { costParts, type FormValues, type Tarifa } from './comparator-logic'
import type { ComparisonAnswer, Cost } from '../../../schemas/business/comparator'
import { messages } from './messages'

const money = (v: number) => formatValue(v, 'money')
// "12,5 %" in Spanish, "12.5%" in English.
const pct = (v: number) => `${formatNumber(v, 1)}${getLanguage() === 'en' ? '%' : ' %'}`

/** The current annual cost against the fixed and indexed offers: the saving, a bar chart and a table. */
export function ComparisonResult({
  ref,
  result,
  tarifa,
  values,
  savedAs,
  saving,
  onSave,
}: {
  ref?: Ref<HTMLElement>
  result: ComparisonAnswer
  tarifa: Tarifa | undefined
  values: FormValues
  savedAs: number | null
  saving: boolean
  onSave: () => void
}) {
  const { dark } = useTheme()
  const t = useMessages(messages)
  const { lang } = useI18n()
  // Where the saved comparisons are listed; a brand without that screen gets no link.
  const savedList = useScreenPath()('comparador-listado')
  const ofertas = result.Ofertas
  const best = ofertas.find((o) => o.Codigo === result.Mejor) ?? ofertas[0]
  const short = (o: { Codigo: string; Nombre: string }) => (o.Codigo === 'fijo' || o.Codigo === 'indexado' ? t(`offer.${o.Codigo}`) : o.Nombre)
  const columns: { key: string; label: string; short: string; importe: Cost }[] = [
    { key: 'actual', label: t('current'), short: t('current'), importe: result.Actual },
    ...ofertas.map((o) => ({ key: o.Codigo, label: o.Nombre, short: short(o), importe: o as Cost })),
  ]

  const data = useMemo(() => {
    const colors = seriesColors()
    const parts = columns.map((c) => costParts(c.importe))
    return {
      labels: columns.map((c) => c.short),
      datasets: [
        { label: t('energy'), data: parts.map((p) => p.energia), backgroundColor: colors[0], stack: 'coste' },
        { label: t('power'), data: parts.map((p) => p.potencia), backgroundColor: colors[1], stack: 'coste' },
        { label: t('taxes'), data: parts.map((p) => p.impuestos), backgroundColor: colors[2], stack: 'coste' },
        { label: t('others'), data: parts.map((p) => p.otros), backgroundColor: colors[3], stack: 'coste' },
      ],
    }
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- built from `result` alone (`columns` and `t` are new each render); chart colours are read from the theme's CSS variables and texts in the interface's language, which `dark` and `lang` stand for
  }, [result, dark, lang])
  const options = useMemo(() => {
    const base = baseOptions()
    return {
      ...base,
      plugins: {
        ...base.plugins,
        tooltip: {
          ...base.plugins.tooltip,
          callbacks: {
            label: (ctx: { dataset: { label?: string }; parsed: { y: number | null } }) => `${ctx.dataset.label}: ${money(ctx.parsed.y ?? 0)}`,
            footer: (items: { dataIndex: number }[]) => t('total', { amount: money(columns[items[0]?.dataIndex ?? 0]?.importe.ImporteAnualEur ?? 0) }),
          },
        },
      },
      scales: {
        x: { ...base.scales.x, stacked: true },
        y: { ...base.scales.y, stacked: true, title: { display: true, text: t('axis.perYear'), color: base.scales.y.ticks.color }, ticks: { ...base.scales.y.ticks, callback: (v: string | number) => `${formatNumber(Number(v), 0)} €` } },
      },
    }
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- built from `result` alone (`columns` and `t` are new each render); chart colours are read from the theme's CSS variables and texts in the interface's language, which `dark` and `lang` stand for
  }, [result, dark, lang])

  const summary = t('summary', {
    current: money(result.Actual.ImporteAnualEur),
    offers: ofertas.map((o) => t('summary.offer', { name: o.Nombre, amount: money(o.ImporteAnualEur), saving: money(o.AhorroAnualEur), pct: pct(o.AhorroPct) })).join('; '),
  })
  const table = {
    columns: [t('col.offer'), t('col.energy'), t('col.power'), t('col.taxes'), t('col.total')],
    rows: columns.map((c) => [c.label, c.importe.EnergiaEur, c.importe.PotenciaEur, c.importe.ImpuestosEur, c.importe.ImporteAnualEur]),
  }
  const saves = best && best.AhorroAnualEur > 0
  const consumo = Object.values(values.ConsumoAnualKwh).reduce<number>((s, v) => s + (v ?? 0), 0)

  return (
    <section ref={ref} tabIndex={-1} className="card comparator-result" aria-labelledby="comparator-result-title">
      <h2 id="comparator-result-title" className="comparator-result__title">
        {values.Nombre ? t('result.titleNamed', { name: values.Nombre }) : t('result.title')}
      </h2>
      <p className="comparator-muted">
        {t('result.subtitle', { tariff: tarifa?.Codigo ?? '', consumption: formatValue(consumo, 'energy') })}
      </p>
      <div className={`comparator-saving${saves ? '' : ' comparator-saving--none'}`} role="status">
        {saves && best ? (
          <>
            <span className="comparator-saving__label">{t('saving.label', { offer: best.Nombre })}</span>
            <strong className="comparator-saving__amount">{money(best.AhorroAnualEur)}</strong>
            <span className="comparator-saving__pct">{t('saving.pct', { pct: pct(best.AhorroPct), from: money(result.Actual.ImporteAnualEur), to: money(best.ImporteAnualEur) })}</span>
          </>
        ) : (
          <span className="comparator-saving__label">{t('saving.none', { amount: money(result.Actual.ImporteAnualEur) })}</span>
        )}
      </div>
      <div className="comparator-result__grid">
        <ChartFrame title={t('chart.title')} summary={summary} table={table} height={280}>
          <Bar data={data} options={options} aria-hidden="true" />
        </ChartFrame>
        <div className="comparator-table">
          <table className="simple-table">
            <caption className="p-sr-only">{t('table.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('table.concept')}</th>
                {columns.map((c) => (
                  <th key={c.key} scope="col" className={c.key === result.Mejor ? 'is-best' : undefined}>
                    {c.short}
                    {c.key === result.Mejor && <span className="comparator-best">{t('table.best')}</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">{t('energy')}</th>
                {columns.map((c) => (
                  <td key={c.key}>{money(c.importe.EnergiaEur)}</td>
                ))}
              </tr>
              <tr>
                <th scope="row">{t('power')}</th>
                {columns.map((c) => (
                  <td key={c.key}>{money(c.importe.PotenciaEur)}</td>
                ))}
              </tr>
              {columns.some((c) => typeof c.importe.AlquilerContadorEur === 'number') && (
                <tr>
                  <th scope="row">{t('meter')}</th>
                  {columns.map((c) => (
                    <td key={c.key}>{typeof c.importe.AlquilerContadorEur === 'number' ? money(c.importe.AlquilerContadorEur) : '—'}</td>
                  ))}
                </tr>
              )}
              <tr>
                <th scope="row">{t('taxes')}</th>
                {columns.map((c) => (
                  <td key={c.key}>{money(c.importe.ImpuestosEur)}</td>
                ))}
              </tr>
              <tr className="comparator-table__total">
                <th scope="row">{t('table.total')}</th>
                {columns.map((c) => (
                  <td key={c.key}>{money(c.importe.ImporteAnualEur)}</td>
                ))}
              </tr>
              <tr>
                <th scope="row">{t('table.saving')}</th>
                <td>—</td>
                {ofertas.map((o) => (
                  <td key={o.Codigo} className={o.AhorroAnualEur > 0 ? 'is-saving' : o.AhorroAnualEur < 0 ? 'is-loss' : undefined}>
                    {money(o.AhorroAnualEur)} ({pct(o.AhorroPct)})
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
          <p className="comparator-offers">
            {ofertas.map((o) => (
              <span key={o.Codigo}>
                <strong>{columns.find((c) => c.key === o.Codigo)?.short}:</strong> {o.Nombre}.{' '}
              </span>
            ))}
          </p>
        </div>
      </div>
      <div className="comparator-result__actions">
        {savedAs !== null ? (
          <p className="comparator-saved" role="status">
            <i className="pi pi-check-circle" aria-hidden="true" /> {t('saved.as', { id: savedAs })} {savedList && <Link to={savedList}>{t('saved.list')}</Link>}
          </p>
        ) : (
          <Button type="button" icon="pi pi-save" label={t('save')} loading={saving} onClick={onSave} />
        )}
      </div>
    </section>
  )
}
