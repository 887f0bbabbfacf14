import { InputText } from 'primereact/inputtext'
import { Message } from 'primereact/message'
import type { ScreenFile } from '../../../schemas/screen'
import { useMessages } from '../../i18n/i18n'
import { missingEnglish, screenTexts, withText } from './screen-texts'
import { messages } from './messages'

/** Every text of the screen in Spanish and English side by side; a missing English is flagged (the screen shows the Spanish). */
export function TextsEditor({ screen, onChange }: { screen: ScreenFile; onChange: (next: ScreenFile) => void }) {
  const t = useMessages(messages)
  const texts = screenTexts(screen)
  const missing = missingEnglish(texts).length
  return (
    <div className="screen-studio__texts">
      <p className="screen-studio__help">{t('texts.help')}</p>
      <Message severity={missing ? 'warn' : 'success'} text={missing ? t('texts.missing', { n: missing }) : t('texts.complete')} className="screen-studio__message" />
      <div className="screen-studio__table-wrap">
        <table className="screen-studio__columns">
          <thead>
            <tr>
              <th scope="col">{t('texts.where')}</th>
              <th scope="col">{t('texts.es')}</th>
              <th scope="col">{t('texts.en')}</th>
            </tr>
          </thead>
          <tbody>
            {texts.map((text) => (
              <tr key={text.path}>
                <th scope="row">
                  <code translate="no">{text.path}</code>
                </th>
                <td>
                  <InputText value={text.es} onChange={(e) => e.target.value && onChange(withText(screen, text.path, e.target.value, text.en) as ScreenFile)} aria-label={`${t('texts.es')}: ${text.path}`} />
                </td>
                <td>
                  <InputText
                    value={text.en}
                    onChange={(e) => onChange(withText(screen, text.path, text.es, e.target.value) as ScreenFile)}
                    aria-label={`${t('texts.en')}: ${text.path}`}
                    className={text.en.trim() ? '' : 'screen-studio__missing'}
                    placeholder={text.es}
                    title={text.en.trim() ? undefined : t('texts.noEnglish')}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
