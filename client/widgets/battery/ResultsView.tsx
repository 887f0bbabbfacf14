import { Tag } from '../../ui/plain/Tag'
import { useMessages } from '../../i18n/i18n'
import { messages } from './messages'
import { formatBeforeAfter, formatCapacity, formatEfficiency, formatEurRounded, formatKwh, formatPayback } from './model'
import type { BatteryResult } from '../../../schemas/business/battery'

/** The best battery, highlighted, with its key figures. */
export function BestCard({ result }: { result: BatteryResult }) {
  const t = useMessages(messages)
  const b = result.Bateria
  const figures: [string, string][] = [
    [t('figure.saving'), formatEurRounded(result.AhorroAnualEur)],
    [t('figure.payback'), formatPayback(result.RetornoAnios, result.AhorroAnualEur)],
    [t('figure.net10'), formatEurRounded(result.AhorroNeto10AniosEur)],
    [t('figure.selfConsumption'), formatBeforeAfter(result.AutoconsumoAntesPct, result.AutoconsumoDespuesPct)],
    [t('figure.autarky'), formatBeforeAfter(result.AutarquiaAntesPct, result.AutarquiaDespuesPct)],
    [t('figure.delivered'), formatKwh(result.EntregadaKwh)],
  ]
  return (
    <article className="card battery__best" aria-labelledby="bat-best-title">
      <div className="battery__best-header">
        <Tag value={t('best')} icon="pi pi-star-fill" severity="success" />
        <h3 id="bat-best-title" className="battery__best-title">
          {b.Fabricante} {b.Modelo}
        </h3>
        <span className="battery__best-meta">
          {t('best.meta', { capacity: formatCapacity(b.CapacidadUtilKwh), efficiency: formatEfficiency(b.Eficiencia), price: formatEurRounded(b.PrecioEur), years: b.GarantiaAnios })}
        </span>
      </div>
      {result.AhorroNeto10AniosEur < 0 && (
        <p className="battery__best-note">
          <i className="pi pi-info-circle" aria-hidden="true" /> {t('best.note')}
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
  const t = useMessages(messages)
  return (
    <div className="card battery__table-card">
      <div className="battery__table-scroll">
        <table className="simple-table battery__table">
          <caption>{t('table.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('table.choose')}</th>
              <th scope="col">{t('table.battery')}</th>
              <th scope="col">{t('table.capacity')}</th>
              <th scope="col">{t('table.price')}</th>
              <th scope="col">{t('table.charge')}</th>
              <th scope="col">{t('table.delivered')}</th>
              <th scope="col">{t('figure.selfConsumption')}</th>
              <th scope="col">{t('figure.autarky')}</th>
              <th scope="col">{t('figure.saving')}</th>
              <th scope="col">{t('table.payback')}</th>
              <th scope="col">{t('table.net10')}</th>
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
                    <input type="radio" name="bat-choice" className="battery__radio" checked={b.Id === chosenId} onChange={() => onChoose(b.Id)} aria-label={t('table.chooseOne', { name })} />
                  </td>
                  <th scope="row">
                    <span className="battery__name">{name}</span>
                    {best && <span className="battery__best-badge">{t('best')}</span>}
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
