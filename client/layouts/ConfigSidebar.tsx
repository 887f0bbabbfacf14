import { RadioButton } from 'primereact/radiobutton'
import { Sidebar as PrimeSidebar } from 'primereact/sidebar'
import { useI18n } from '../i18n/i18n'
import { useTheme, type ThemeMode } from '../ui/theme'
import { LanguageSwitcher } from './LanguageSwitcher'

const MODES: ThemeMode[] = ['light', 'dark', 'system']

/** The configuration sidebar: light/dark/system theme and language. */
export function ConfigSidebar({ visible, onHide }: { visible: boolean; onHide: () => void }) {
  const { t } = useI18n()
  const { mode, setMode } = useTheme()
  return (
    <PrimeSidebar visible={visible} position="right" onHide={onHide} header={<h2 className="config-title">{t('layout.settings')}</h2>} className="config-sidebar">
      <fieldset className="config-group">
        <legend>{t('layout.theme')}</legend>
        {MODES.map((m) => (
          <div key={m} className="config-option">
            <RadioButton inputId={`theme-${m}`} name="theme-mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
            <label htmlFor={`theme-${m}`}>{t(`layout.theme.${m}`)}</label>
          </div>
        ))}
      </fieldset>
      <fieldset className="config-group">
        <legend>{t('layout.language')}</legend>
        <LanguageSwitcher />
      </fieldset>
    </PrimeSidebar>
  )
}
