import { useState, type FormEvent } from 'react'
import { Link } from 'react-router-dom'
import { publicPath } from '../../schemas/public-pages'
import { api, ApiError } from '../api/client'
import { errorText } from '../api/errors'
import { useLoadedManifest } from '../api/manifest'
import { useI18n } from '../i18n/i18n'
import { describedBy } from '../ui/described-by'
import { FieldShell } from '../ui/FieldShell'
import { Button } from '../ui/plain/Button'
import { InputText } from '../ui/plain/InputText'
import { Message } from '../ui/plain/Message'
import { PasswordInput } from '../ui/plain/PasswordInput'

type Field = 'email' | 'nombre' | 'password' | 'confirm'
const EMAIL = /^\S+@\S+\.\S+$/

/**
 * Sign-up (spec §7, `POST /bff/auth/signup`): the new account waits until an administrator of
 * the brand approves it, so success signs nobody in and says so. Shown only when the portal
 * offers sign-up (the manifest's `signup`); what was typed stays on any error.
 */
export function SignUpPage() {
  const { t } = useI18n()
  const manifest = useLoadedManifest()
  const [email, setEmail] = useState('')
  const [nombre, setNombre] = useState('')
  const [apellidos, setApellidos] = useState('')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({})
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const check = (): Partial<Record<Field, string>> => {
    const errors: Partial<Record<Field, string>> = {}
    if (!EMAIL.test(email.trim())) errors.email = t('auth.recovery.invalid')
    if (!nombre.trim()) errors.nombre = t('auth.signup.nameRequired')
    if (!password) errors.password = t('auth.signup.passwordRequired')
    else if (password !== confirm) errors.confirm = t('auth.reset.mismatch')
    return errors
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const errors = check()
    setFieldErrors(errors)
    setError(null)
    if (Object.keys(errors).length > 0) return
    setBusy(true)
    try {
      await api.post('/bff/auth/signup', {
        Email: email.trim(),
        Nombre: nombre.trim(),
        ...(apellidos.trim() ? { Apellidos: apellidos.trim() } : {}),
        Password: password,
      })
      // The portal's own words, in the user's language (the BFF's answer says the same in Spanish).
      setDone(t('auth.signup.done'))
    } catch (err) {
      // The upstream's words stand; a taken address belongs to its field, the rest above the form.
      if (err instanceof ApiError && err.status === 409) setFieldErrors({ email: errorText(err) })
      else if (err instanceof ApiError && err.status === 400 && /contraseña/i.test(err.serverMessage ?? '')) setFieldErrors({ password: errorText(err) })
      else setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }

  const back = (
    <Link to={publicPath('login')} className="auth-link">
      {t('auth.recovery.back')}
    </Link>
  )
  if (!manifest.signup) {
    return (
      <div className="auth-form">
        <h1 className="auth-title">{t('auth.signup.title')}</h1>
        <Message severity="error" text={t('auth.signup.off')} className="auth-message" />
        {back}
      </div>
    )
  }

  const invalid = (field: Field) => fieldErrors[field] !== undefined
  return (
    <form className="auth-form" onSubmit={submit} noValidate aria-labelledby="signup-title">
      <h1 id="signup-title" className="auth-title">{t('auth.signup.title')}</h1>
      <p className="auth-subtitle">{t('auth.signup.subtitle')}</p>
      {done && <Message severity="success" text={done} className="auth-message" role="status" />}
      {error && <Message severity="error" text={error} className="auth-message" role="alert" />}
      <FieldShell id="signup-email" label={t('auth.login.username')} required error={fieldErrors.email}>
        <InputText id="signup-email" type="email" autoComplete="email" autoFocus value={email} onChange={(e) => setEmail(e.target.value)} invalid={invalid('email')} aria-invalid={invalid('email') || undefined} aria-describedby={describedBy('signup-email', undefined, fieldErrors.email)} disabled={!!done} />
      </FieldShell>
      <FieldShell id="signup-nombre" label={t('auth.signup.name')} required error={fieldErrors.nombre}>
        <InputText id="signup-nombre" autoComplete="given-name" maxLength={100} value={nombre} onChange={(e) => setNombre(e.target.value)} invalid={invalid('nombre')} aria-invalid={invalid('nombre') || undefined} aria-describedby={describedBy('signup-nombre', undefined, fieldErrors.nombre)} disabled={!!done} />
      </FieldShell>
      <FieldShell id="signup-apellidos" label={t('auth.signup.surname')}>
        <InputText id="signup-apellidos" autoComplete="family-name" maxLength={150} value={apellidos} onChange={(e) => setApellidos(e.target.value)} disabled={!!done} />
      </FieldShell>
      <FieldShell id="signup-password" label={t('auth.login.password')} required hint={t('auth.reset.subtitle')} error={fieldErrors.password}>
        <PasswordInput id="signup-password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} invalid={invalid('password')} aria-invalid={invalid('password') || undefined} aria-describedby={describedBy('signup-password', t('auth.reset.subtitle'), fieldErrors.password)} disabled={!!done} />
      </FieldShell>
      <FieldShell id="signup-confirm" label={t('auth.reset.confirm')} required error={fieldErrors.confirm}>
        <PasswordInput id="signup-confirm" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} invalid={invalid('confirm')} aria-invalid={invalid('confirm') || undefined} aria-describedby={describedBy('signup-confirm', undefined, fieldErrors.confirm)} disabled={!!done} />
      </FieldShell>
      {done ? (
        <Link to={publicPath('login')} className="p-button auth-submit auth-link-button">
          {t('error.login')}
        </Link>
      ) : (
        <Button type="submit" label={t('auth.signup.submit')} icon="pi pi-user-plus" loading={busy} className="auth-submit" />
      )}
      {back}
    </form>
  )
}
