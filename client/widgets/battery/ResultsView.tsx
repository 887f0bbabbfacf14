import { Tag } from 'primereact/tag'
import { formatBeforeAfter, formatCapacity, formatEfficiency, formatEurRounded, formatKwh, formatPayback, type BatteryResult } from './model'

/** The best battery, highlighted, with its key figures. */
export function BestCard({ result }: { result: BatteryResult }) {
  const b = result.Bateria
  const figures: [string, string][] = [
    ['Ahorro anual', formatEurRounded(result.AhorroAnualEur)],
    ['Retorno de la inversión', formatPayback(result.RetornoAnios, result.AhorroAnualEur)],
    ['Ahorro neto a 10 años', formatEurRounded(result.AhorroNeto10AniosEur)],
    ['Autoconsumo', formatBeforeAfter(result.AutoconsumoAntesPct, result.AutoconsumoDespuesPct)],
    ['Autarquía', formatBeforeAfter(result.AutarquiaAntesPct, result.AutarquiaDespuesPct)],
    ['Energía entregada al año', formatKwh(result.EntregadaKwh)],
  ]
  return (
    <article className="card battery__best" aria-labelledby="bat-best-title">
      <div className="battery__best-header">
        <Tag value="Mejor opción" icon="pi pi-star-fill" severity="success" />
        <h3 id="bat-best-title" className="battery__best-title">
          {b.Fabricante} {b.Modelo}
        </h3>
        <span className="battery__best-meta">
          {formatCapacity(b.CapacidadUtilKwh)} útiles · eficiencia {formatEfficiency(b.Eficiencia)} · {formatEurRounded(b.PrecioEur)} · garantía {b.GarantiaAnios} años
        </span>
      </div>
      {result.AhorroNeto10AniosEur < 0 && (
        <p className="battery__best-note">
          <i className="pi pi-info-circle" aria-hidden="true" /> Es la que mejor resultado da, pero con estos datos ninguna batería se amortiza en 10 años: el ahorro
          anual no llega a cubrir su precio en ese plazo.
        </p>
      )}
      <dl className="battery__figures">
        {figures.map(([label, value]) => (
          <div key={label} className="battery__figure">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </article>
  )
}

/** Every battery compared, the best marked; a radio picks the one used for the chart and the documents. */
export function ResultsTable({ results, bestId, chosenId, onChoose }: { results: BatteryResult[]; bestId: number | null; chosenId: number | null; onChoose: (id: number) => void }) {
  return (
    <div className="card battery__table-card">
      <div className="battery__table-scroll">
        <table className="simple-table battery__table">
          <caption>Baterías comparadas (elige una para el gráfico y los documentos)</caption>
          <thead>
            <tr>
              <th scope="col">Elegir</th>
              <th scope="col">Batería</th>
              <th scope="col">Capacidad útil</th>
              <th scope="col">Precio</th>
              <th scope="col">Carga anual</th>
              <th scope="col">Energía entregada</th>
              <th scope="col">Autoconsumo</th>
              <th scope="col">Autarquía</th>
              <th scope="col">Ahorro anual</th>
              <th scope="col">Retorno</th>
              <th scope="col">Ahorro neto 10 años</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r) => {
              const b = r.Bateria
              const best = b.Id === bestId
              const name = `${b.Fabricante} ${b.Modelo}`
              return (
                <tr key={b.Id} className={`${best ? 'battery__row--best' : ''} ${b.Id === chosenId ? 'battery__row--chosen' : ''}`}>
                  <td>
                    <input type="radio" name="bat-choice" className="battery__radio" checked={b.Id === chosenId} onChange={() => onChoose(b.Id)} aria-label={`Elegir ${name}`} />
                  </td>
                  <th scope="row">
                    <span className="battery__name">{name}</span>
                    {best && <span className="battery__best-badge">Mejor opción</span>}
                  </th>
                  <td>{formatCapacity(b.CapacidadUtilKwh)}</td>
                  <td>{formatEurRounded(b.PrecioEur)}</td>
                  <td>{formatKwh(r.CargaKwh)}</td>
                  <td>{formatKwh(r.EntregadaKwh)}</td>
                  <td>{formatBeforeAfter(r.AutoconsumoAntesPct, r.AutoconsumoDespuesPct)}</td>
                  <td>{formatBeforeAfter(r.AutarquiaAntesPct, r.AutarquiaDespuesPct)}</td>
                  <td>{formatEurRounded(r.AhorroAnualEur)}</td>
                  <td>{formatPayback(r.RetornoAnios, r.AhorroAnualEur)}</td>
                  <td className={r.AhorroNeto10AniosEur < 0 ? 'battery__negative' : undefined}>{formatEurRounded(r.AhorroNeto10AniosEur)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </div>
  )
}
