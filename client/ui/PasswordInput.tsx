import { Button } from 'primereact/button'
import { InputText, type InputTextProps } from 'primereact/inputtext'
import { useState } from 'react'
import { useI18n } from '../i18n/i18n'

/**
 * The portal's password field: a PrimeReact InputText with a show/hide button. The button is a
 * real one (focusable, named, pressed state), and the field needs none of the Password
 * component's overlay machinery, which the sign-in page would otherwise download.
 */
export function PasswordInput({ className, disabled, ...input }: Omit<InputTextProps, 'type'>) {
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
