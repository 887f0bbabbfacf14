import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router-dom'
import { Tag } from '../../../ui/plain/Tag'
import { useScreenPath } from '../../../api/screen-path'
import { useMessages } from '../../../i18n/i18n'
import { formatValue } from '../../../ui/format'
import { EmptyState } from '../../../ui/states'
import { messages } from '../messages'
import { PanelState } from './PanelState'
import { renewalsQuery } from '../queries'

const SEVERITY: Record<string, 'secondary' | 'info' | 'success'> = { proxima_renovacion: 'secondary', ofertada: 'info', aceptada: 'success' }

export function RenewalsPanel() {
  const t = useMessages(messages)
  const pathOf = useScreenPath()
  const query = useQuery({
    ...renewalsQuery(),
    // Titled and worded by the endpoint catalogue (spec §8).
  })
  return (
    <PanelState queries={[query]}>
      {() => {
        const { Items, TotalCount } = query.data!
        const all = pathOf('renovaciones')
        return (
          <div className="dash-renewals">
            {Items.length === 0 ? (
              <EmptyState className="dash-muted">{t('renewals.none')}</EmptyState>
            ) : (
              <ul className="dash-renewals__list">
                {Items.map((r) => (
                  <li key={r.Id}>
                    <div className="dash-renewals__main">
                      <ContractCode code={r.CodigoContrato} to={pathOf('contrato-detalle', { referencia: r.CodigoContrato })} />
                      <span className="dash-renewals__holder" translate="no">
                        {r.Titular}
                      </span>
                    </div>
                    <div className="dash-renewals__meta">
                      <span>{formatValue(r.FechaRenovacion, 'date')}</span>
                      <Tag value={r.Subestado} translate="no" severity={SEVERITY[r.SubestadoCodigo] ?? 'info'} />
                    </div>
                  </li>
                ))}
              </ul>
            )}
            {all && (
              <Link to={all} className="dash-renewals__all">
                {t('renewals.all', { n: formatValue(TotalCount, 'integer') })} <i className="pi pi-arrow-right" aria-hidden="true" />
              </Link>
            )}
          </div>
        )
      }}
    </PanelState>
  )
}

/** A renewal's contract code, a link to the contract when this user and host have its screen. */
function ContractCode({ code, to }: { code: string; to: string | undefined }) {
  return to ? (
    <Link to={to} className="dash-renewals__code" translate="no">
      {code}
    </Link>
  ) : (
    <span className="dash-renewals__code" translate="no">
      {code}
    </span>
  )
}
