import type { Manifest } from '../../schemas/manifest'
import { useI18n } from '../i18n/i18n'
import { useTheme } from '../ui/theme'

export function Footer({ manifest }: { manifest: Manifest }) {
  const { t } = useI18n()
  const { dark } = useTheme()
  return (
    <footer className="layout-footer">
      <img src={dark ? manifest.brand.icon.dark : manifest.brand.icon.light} alt="" width={20} height={20} />
      <span>{t('layout.footer', { brand: manifest.brand.name })}</span>
      <span className="layout-footer__build">{t('layout.version', { build: manifest.buildId })}</span>
    </footer>
  )
}
