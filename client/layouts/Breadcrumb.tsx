import { Link, useLocation, useParams } from 'react-router-dom'
import type { Manifest } from '../../schemas/manifest'
import { routeAt } from '../api/manifest'
import { useI18n } from '../i18n/i18n'
import { menuTrail } from './menu-trail'

/** Inicio › section › … › page, from the menu when the page is in it, else from the route's title. */
export function Breadcrumb({ manifest }: { manifest: Manifest }) {
  const { t, l } = useI18n()
  const location = useLocation()
  const params = useParams()
  const route = routeAt(manifest.routes, location.pathname)
  const trail = menuTrail(manifest.menu, location.pathname)
  const crumbs: { label: string; to?: string }[] = trail.map((e) => ({ label: l(e.label), to: e.to }))
  if (trail.length === 0 && route && route.path !== '/') {
    const param = Object.values(params).find(Boolean)
    crumbs.push({ label: param ? `${l(route.title)} ${param}` : l(route.title) })
  }
  return (
    <nav className="layout-breadcrumb" aria-label={t('layout.breadcrumb')}>
      <ol>
        <li>
          <Link to="/" aria-label={t('layout.home')}>
            <i className="pi pi-home" aria-hidden="true" />
          </Link>
        </li>
        {crumbs
          .filter((c) => c.to !== '/')
          .map((c, i, all) => (
            <li key={`${c.label}-${i}`}>
              <i className="pi pi-angle-right layout-breadcrumb__sep" aria-hidden="true" />
              {i === all.length - 1 ? <span aria-current="page">{c.label}</span> : <span>{c.label}</span>}
            </li>
          ))}
      </ol>
    </nav>
  )
}
