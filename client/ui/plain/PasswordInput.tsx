import { useState } from 'react'
import { useI18n } from '../../i18n/i18n'
import { Button } from './Button'
import { InputText, type PlainInputTextProps } from './InputText'

/**
 * The portal's password field (sign-in, reset, screen forms): a text input with a show/hide
 * button. The button is a real one (focusable, named, pressed state), and the field needs none
 * of PrimeReact's Password overlay machinery, nor any PrimeReact code at all.
 */
export function PasswordInput({ className, disabled, ...input }: Omit<PlainInputTextProps, 'type'>) {
  const { t } = useI18n()
  const [visible, setVisible] = useState(false)
  return (
    <span className={`password-input${className ? ` ${className}` : ''}`}>
      <InputText {...input} disabled={disabled} type={visible ? 'text' : 'password'} />
      <Button
        type="button"
        className="password-input__toggle"
        icon={visible ? 'pi pi-eye-slash' : 'pi pi-eye'}
        text
        rounded
        disabled={disabled}
        aria-label={visible ? t('auth.password.hide') : t('auth.password.show')}
        aria-pressed={visible}
        onClick={() => setVisible((v) => !v)}
      />
    </span>
  )
}
