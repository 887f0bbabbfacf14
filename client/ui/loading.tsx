import { ProgressSpinner } from './plain/ProgressSpinner'
import { useI18n } from '../i18n/i18n'

/** A centred spinner announced as loading; `className` places it (page, form, boot). */
export function LoadingSpinner({ label, size, className }: { label: string; size: number; className?: string }) {
  return (
    <div className={className} role="status" aria-label={label}>
      <ProgressSpinner strokeWidth="4" size={size} />
    </div>
  )
}

/** The spinner shown while a page's code or its route check is on its way. */
export function PageLoading() {
  const { t } = useI18n()
  return <LoadingSpinner className="page-loading" size={40} label={t('app.loading')} />
}
