import { ProgressSpinner } from 'primereact/progressspinner'
import { useI18n } from '../i18n/i18n'

/** The spinner shown while a page's code or its route check is on its way. */
export function PageLoading() {
  const { t } = useI18n()
  return (
    <div className="page-loading" role="status" aria-label={t('app.loading')}>
      <ProgressSpinner strokeWidth="4" style={{ width: 40, height: 40 }} />
    </div>
  )
}
