import { Button } from 'primereact/button'
import { useMemo, type Ref } from 'react'
import { Bar } from 'react-chartjs-2'
import { Link } from 'react-router-dom'
import { useTheme } from '../../app/theme'
import { formatValue } from '../../renderer/format'
import { ChartFrame } from '../shared/ChartFrame'
import { baseOptions, formatNumber, seriesColors } from '../shared/charts'
import { costParts, type ComparativaResult, type FormValues, type Importe, type Tarifa } from './comparator-logic'

const money = (v: number) => formatValue(v, 'money')
const pct = (v: number) => `${formatNumber(v, 1)} %`

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
  result: ComparativaResult
  tarifa: Tarifa | undefined
  values: FormValues
  savedAs: number | null
  saving: boolean
  onSave: () => void
}) {
  const { dark } = useTheme()
  const ofertas = result.Ofertas
  const best = ofertas.find((o) => o.Codigo === result.Mejor) ?? ofertas[0]
  const short = (o: { Codigo: string; Nombre: string }) => (o.Codigo === 'fijo' ? 'Precio fijo' : o.Codigo === 'indexado' ? 'Indexado' : o.Nombre)
  const columns: { key: string; label: string; short: string; importe: Importe }[] = [
    { key: 'actual', label: 'Actual', short: 'Actual', importe: result.Actual },
    ...ofertas.map((o) => ({ key: o.Codigo, label: o.Nombre, short: short(o), importe: o as Importe })),
  ]

  const data = useMemo(() => {
    const colors = seriesColors()
    const parts = columns.map((c) => costParts(c.importe))
    return {
      labels: columns.map((c) => c.short),
      datasets: [
        { label: 'Energía', data: parts.map((p) => p.energia), backgroundColor: colors[0], stack: 'coste' },
        { label: 'Potencia', data: parts.map((p) => p.potencia), backgroundColor: colors[1], stack: 'coste' },
        { label: 'Impuestos', data: parts.map((p) => p.impuestos), backgroundColor: colors[2], stack: 'coste' },
        { label: 'Alquiler del contador y otros', data: parts.map((p) => p.otros), backgroundColor: colors[3], stack: 'coste' },
      ],
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result, dark])
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
            footer: (items: { dataIndex: number }[]) => `Total: ${money(columns[items[0]?.dataIndex ?? 0]?.importe.ImporteAnualEur ?? 0)}`,
          },
        },
      },
      scales: {
        x: { ...base.scales.x, stacked: true },
        y: { ...base.scales.y, stacked: true, title: { display: true, text: '€ al año', color: base.scales.y.ticks.color }, ticks: { ...base.scales.y.ticks, callback: (v: string | number) => `${formatNumber(Number(v), 0)} €` } },
      },
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result, dark])

  const summary = `Coste anual con impuestos: actual ${money(result.Actual.ImporteAnualEur)}; ${ofertas.map((o) => `${o.Nombre} ${money(o.ImporteAnualEur)} (ahorro ${money(o.AhorroAnualEur)}, ${pct(o.AhorroPct)})`).join('; ')}.`
  const table = {
    columns: ['Oferta', 'Energía (€)', 'Potencia (€)', 'Impuestos (€)', 'Total anual (€)'],
    rows: columns.map((c) => [c.label, c.importe.EnergiaEur, c.importe.PotenciaEur, c.importe.ImpuestosEur, c.importe.ImporteAnualEur]),
  }
  const saves = best && best.AhorroAnualEur > 0
  const consumo = Object.values(values.ConsumoAnualKwh).reduce<number>((s, v) => s + (v ?? 0), 0)

  return (
    <section ref={ref} tabIndex={-1} className="card comparator-result" aria-labelledby="comparator-result-title">
      <h2 id="comparator-result-title" className="comparator-result__title">
        Resultado{values.Nombre ? `: ${values.Nombre}` : ''}
      </h2>
      <p className="comparator-muted">
        {tarifa?.Codigo ?? ''} · {formatValue(consumo, 'energy')} al año · importes anuales con impuestos (impuesto eléctrico, IVA y alquiler del contador).
      </p>
      <div className={`comparator-saving${saves ? '' : ' comparator-saving--none'}`} role="status">
        {saves && best ? (
          <>
            <span className="comparator-saving__label">Ahorro anual con «{best.Nombre}»</span>
            <strong className="comparator-saving__amount">{money(best.AhorroAnualEur)}</strong>
            <span className="comparator-saving__pct">{pct(best.AhorroPct)} menos que hoy ({money(result.Actual.ImporteAnualEur)} → {money(best.ImporteAnualEur)})</span>
          </>
        ) : (
          <span className="comparator-saving__label">Ninguna oferta mejora hoy el coste actual de {money(result.Actual.ImporteAnualEur)} al año.</span>
        )}
      </div>
      <div className="comparator-result__grid">
        <ChartFrame title="Coste anual por oferta" summary={summary} table={table} height={280}>
          <Bar data={data} options={options} aria-hidden="true" />
        </ChartFrame>
        <div className="comparator-table">
          <table className="simple-table">
            <caption className="p-sr-only">Comparativa de costes anuales</caption>
            <thead>
              <tr>
                <th scope="col">Concepto</th>
                {columns.map((c) => (
                  <th key={c.key} scope="col" className={c.key === result.Mejor ? 'is-best' : undefined}>
                    {c.short}
                    {c.key === result.Mejor && <span className="comparator-best"> (mejor)</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Energía</th>
                {columns.map((c) => (
                  <td key={c.key}>{money(c.importe.EnergiaEur)}</td>
                ))}
              </tr>
              <tr>
                <th scope="row">Potencia</th>
                {columns.map((c) => (
                  <td key={c.key}>{money(c.importe.PotenciaEur)}</td>
                ))}
              </tr>
              {columns.some((c) => typeof c.importe.AlquilerContadorEur === 'number') && (
                <tr>
                  <th scope="row">Alquiler del contador</th>
                  {columns.map((c) => (
                    <td key={c.key}>{typeof c.importe.AlquilerContadorEur === 'number' ? money(c.importe.AlquilerContadorEur) : '—'}</td>
                  ))}
                </tr>
              )}
              <tr>
                <th scope="row">Impuestos</th>
                {columns.map((c) => (
                  <td key={c.key}>{money(c.importe.ImpuestosEur)}</td>
                ))}
              </tr>
              <tr className="comparator-table__total">
                <th scope="row">Total anual</th>
                {columns.map((c) => (
                  <td key={c.key}>{money(c.importe.ImporteAnualEur)}</td>
                ))}
              </tr>
              <tr>
                <th scope="row">Ahorro anual</th>
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
            <i className="pi pi-check-circle" aria-hidden="true" /> Comparativa guardada (n.º {savedAs}). <Link to="/soluciones/comparador/listado">Ver comparativas guardadas</Link>
          </p>
        ) : (
          <Button type="button" icon="pi pi-save" label="Guardar comparativa" loading={saving} onClick={onSave} />
        )}
      </div>
    </section>
  )
}
