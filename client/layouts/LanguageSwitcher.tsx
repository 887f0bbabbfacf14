import { useI18n } from '../i18n/i18n'
import { SelectButton } from '../ui/plain/SelectButton'
import type { Language } from '../../schemas/i18n'

const OPTIONS: { label: string; value: Language; title: string }[] = [
  { label: 'ES', value: 'es', title: 'Español' },
  { label: 'EN', value: 'en', title: 'English' },
]

/** ES/EN; Spanish is the default (spec §9 locales). Plain, as the sign-in page shows it before PrimeReact loads. */
export function LanguageSwitcher() {
  const { lang, setLanguage, t } = useI18n()
  return (
    <SelectButton
      className="language-switcher"
      value={lang}
      options={OPTIONS}
      aria-label={t('layout.language')}
      itemTemplate={(o) => (
        <span title={o.title} lang={o.value}>
          {o.label}
        </span>
      )}
      onChange={setLanguage}
    />
  )
}
