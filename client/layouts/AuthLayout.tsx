import { Outlet } from 'react-router-dom'
import { useLoadedManifest } from '../api/manifest'
import { useI18n } from '../i18n/i18n'
import { useTheme } from '../ui/theme'
import { LanguageSwitcher } from './LanguageSwitcher'

/** Sign-in, recovery, reset and error pages: a centred card under the brand's logo. */
export function AuthLayout() {
  const manifest = useLoadedManifest()
  const { dark } = useTheme()
  const { t } = useI18n()
  return (
    <div className="auth-layout">
      <div className="auth-layout__lang">
        <LanguageSwitcher />
      </div>
      <main className="auth-card" id="main">
        <img className="auth-logo" src={dark ? manifest.brand.logo.dark : manifest.brand.logo.light} alt={manifest.brand.name} width={240} height={48} />
        <Outlet />
      </main>
      <p className="auth-footer">{t('layout.footer', { brand: manifest.brand.name })}</p>
    </div>
  )
}
