import { Link } from 'react-router-dom'
import { publicPath } from '../../schemas/public-pages'
import { useManifest } from '../api/manifest'
import { useI18n } from '../i18n/i18n'

export interface ErrorViewProps {
  status: number
  /** The status message; defaults by variant ('Page Not Found' / 'Internal Server Error'). */
  message?: string
  description?: string
}

/**
 * The error page of spec §2: status code, status message and description; 404 gets the
 * not-found variant, any other status the server-error variant.
 */
export function ErrorView({ status, message, description }: ErrorViewProps) {
  const { t } = useI18n()
  const manifest = useManifest().data
  const notFound = status === 404
  const known = status === 401 || status === 403
  const title = message ?? (notFound ? t('error.notFound') : known ? t(`error.${status}.message` as 'error.401.message') : t('error.serverError'))
  const text =
    description ?? (notFound ? t('error.notFound.description') : known ? t(`error.${status}.description` as 'error.401.description') : t('error.generic.description'))
  return (
    <section className={`error-view ${notFound ? 'error-view--not-found' : 'error-view--server'}`} aria-labelledby="error-title">
      <div className="error-view__icon" aria-hidden="true">
        <i className={notFound ? 'pi pi-compass' : status === 401 || status === 403 ? 'pi pi-lock' : 'pi pi-exclamation-triangle'} />
      </div>
      <p className="error-view__status">{status}</p>
      <h1 id="error-title" className="error-view__message">
        {title}
      </h1>
      <p className="error-view__description">{text}</p>
      <Link className="p-button error-view__action" to={manifest?.authenticated === false ? publicPath('login') : '/'}>
        <i className="pi pi-home" aria-hidden="true" />
        <span>{manifest?.authenticated === false ? t('error.login') : t('error.back')}</span>
      </Link>
    </section>
  )
}

/** An unknown path: 404 with 'Page Not Found: {path}'. */
export function NotFoundPage({ path }: { path: string }) {
  return <ErrorView status={404} message={`Page Not Found: ${path}`} />
}
