import { useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Menu } from 'primereact/menu'
import { useRef } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import type { Manifest } from '../../schemas/manifest'
import { publicPath } from '../../schemas/public-pages'
import { screenPath } from '../api/screen-path'
import { signOut } from '../auth/session-actions'
import { useI18n, useMessages } from '../i18n/i18n'
import { useTheme } from '../ui/theme'
import { LanguageSwitcher } from './LanguageSwitcher'
import { paletteMessages } from './palette-messages'

interface TopbarProps {
  manifest: Manifest
  onToggleMenu: () => void
  onOpenSettings: () => void
  /** Opens the command palette. */
  onOpenSearch: () => void
}

/** ⌘ on a Mac, Ctrl elsewhere: what the search box's shortcut hint shows. */
const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

export function Topbar({ manifest, onToggleMenu, onOpenSettings, onOpenSearch }: TopbarProps) {
  const { t } = useI18n()
  const tp = useMessages(paletteMessages)
  const { dark } = useTheme()
  const userMenu = useRef<Menu>(null)
  const client = useQueryClient()
  const navigate = useNavigate()
  const user = manifest.user
  const initials = (user?.name ?? '?')
    .split(/\s+/)
    .slice(0, 2)
    .map((w) => w[0])
    .join('')
    .toUpperCase()

  const logout = async () => {
    await signOut(client).catch(() => undefined)
    navigate(publicPath('login'), { replace: true })
  }

  return (
    <header className="layout-topbar">
      <Button
        type="button"
        icon="pi pi-bars"
        rounded
        text
        className="layout-topbar__button"
        aria-label={t('layout.toggleMenu')}
        onClick={onToggleMenu}
      />
      <Link to="/" className="layout-topbar__logo" aria-label={`${manifest.brand.name} — ${t('layout.home')}`}>
        <img src={dark ? manifest.brand.logo.dark : manifest.brand.logo.light} alt={manifest.brand.name} height={40} width={200} />
      </Link>
      <div className="layout-topbar__spacer">
        {user && (
          <button type="button" className="layout-topbar__search" aria-haspopup="dialog" aria-keyshortcuts={isMac ? 'Meta+K' : 'Control+K'} aria-label={tp('box.label')} onClick={onOpenSearch}>
            <i className="pi pi-search" aria-hidden="true" />
            <span className="layout-topbar__search-text">{tp('box.placeholder')}</span>
            <kbd aria-hidden="true">{isMac ? '⌘K' : tp('box.shortcut')}</kbd>
          </button>
        )}
      </div>
      <LanguageSwitcher />
      <Button type="button" icon="pi pi-cog" rounded text className="layout-topbar__button" aria-label={t('layout.settings')} onClick={onOpenSettings} />
      {user && (
        <>
          <button
            type="button"
            className="layout-topbar__user"
            aria-haspopup="menu"
            aria-label={`${t('layout.userMenu')}: ${user.name}`}
            onClick={(e) => userMenu.current?.toggle(e)}
          >
            <span className="layout-topbar__avatar" aria-hidden="true">
              {initials}
            </span>
            <span className="layout-topbar__username">{user.name}</span>
            <i className="pi pi-angle-down" aria-hidden="true" />
          </button>
          <Menu
            ref={userMenu}
            popup
            popupAlignment="right"
            model={[
              { label: user.email, disabled: true, className: 'layout-topbar__menu-email' },
              { separator: true },
              { label: t('layout.profile'), icon: 'pi pi-user', command: () => navigate(screenPath(manifest.routes, 'perfil') ?? '/') },
              { label: t('layout.logout'), icon: 'pi pi-sign-out', command: () => void logout() },
            ]}
          />
        </>
      )}
    </header>
  )
}
