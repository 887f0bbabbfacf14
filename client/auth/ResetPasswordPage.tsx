import { useState, type FormEvent } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { publicPath } from '../../schemas/public-pages'
import { api } from '../api/client'
import { errorText } from '../api/errors'
import { useI18n } from '../i18n/i18n'
import { FieldShell } from '../ui/FieldShell'
import { Button } from '../ui/plain/Button'
import { InputText } from '../ui/plain/InputText'
import { Message } from '../ui/plain/Message'
import { PasswordInput } from '../ui/plain/PasswordInput'

/** Reset: email and token from the mailed link, then a new password (`api/auth/change-password`). */
export function ResetPasswordPage() {
  const { t } = useI18n()
  const [params] = useSearchParams()
  const [email, setEmail] = useState(params.get('email') ?? '')
  const [token, setToken] = useState(params.get('token') ?? '')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [done, setDone] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (password !== confirm) {
      setError(t('auth.reset.mismatch'))
      return
    }
    setBusy(true)
    setError(null)
    try {
      const answer = await api.post<{ message?: string }>('/api/auth/change-password', { email: email.trim(), token: token.trim(), newPassword: password })
      setDone(answer?.message ?? t('auth.reset.done'))
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="auth-form" onSubmit={submit} noValidate aria-labelledby="reset-title">
      <h1 id="reset-title" className="auth-title">{t('auth.reset.title')}</h1>
      <p className="auth-subtitle">{t('auth.reset.subtitle')}</p>
      {done && <Message severity="success" text={done} className="auth-message" role="status" />}
      {error && <Message severity="error" text={error} className="auth-message" role="alert" />}
      <FieldShell id="reset-email" label={t('auth.reset.email')}>
        <InputText id="reset-email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
      </FieldShell>
      <FieldShell id="reset-token" label={t('auth.reset.token')}>
        <InputText id="reset-token" autoComplete="one-time-code" value={token} onChange={(e) => setToken(e.target.value)} />
      </FieldShell>
      <FieldShell id="reset-password" label={t('auth.reset.password')}>
        <PasswordInput id="reset-password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </FieldShell>
      <FieldShell id="reset-confirm" label={t('auth.reset.confirm')}>
        <PasswordInput id="reset-confirm" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
      </FieldShell>
      {done ? (
        <Link to={publicPath('login')} className="p-button auth-submit auth-link-button">
          {t('error.login')}
        </Link>
      ) : (
        <Button type="submit" label={t('auth.reset.submit')} icon="pi pi-check" loading={busy} className="auth-submit" />
      )}
      <Link to={publicPath('login')} className="auth-link">
        {t('auth.recovery.back')}
      </Link>
    </form>
  )
}
