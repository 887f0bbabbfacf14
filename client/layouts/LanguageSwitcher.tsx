import { SelectButton } from 'primereact/selectbutton'
import { useI18n } from '../i18n/i18n'
import type { Language } from '../../schemas/i18n'

const OPTIONS: { label: string; value: Language; title: string }[] = [
  { label: 'ES', value: 'es', title: 'Español' },
  { label: 'EN', value: 'en', title: 'English' },
]

/** ES/EN; Spanish is the default (spec §9 locales). */
export function LanguageSwitcher() {
  const { lang, setLanguage, t } = useI18n()
  return (
    <SelectButton
      className="language-switcher"
      value={lang}
      options={OPTIONS}
      allowEmpty={false}
      aria-label={t('layout.language')}
      itemTemplate={(o: (typeof OPTIONS)[number]) => (
        <span title={o.title} lang={o.value}>
          {o.label}
        </span>
      )}
      onChange={(e) => e.value && setLanguage(e.value as Language)}
    />
  )
}
