import { useState, type FormEvent } from 'react'
import { Link } from 'react-router-dom'
import { publicPath } from '../../schemas/public-pages'
import { api } from '../api/client'
import { errorText } from '../api/errors'
import { useI18n } from '../i18n/i18n'
import { FieldShell } from '../ui/FieldShell'
import { Button } from '../ui/plain/Button'
import { InputText } from '../ui/plain/InputText'
import { Message } from '../ui/plain/Message'

/** Password recovery: asks the upstream to mail a reset link (`api/auth/request-change-password`). */
export function RecoveryPage() {
  const { t } = useI18n()
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) {
      setError(t('auth.recovery.invalid'))
      return
    }
    setBusy(true)
    setError(null)
    try {
      const answer = await api.post<{ message?: string }>('/api/auth/request-change-password', { email: email.trim() })
      setSent(answer?.message ?? t('auth.recovery.sent'))
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="auth-form" onSubmit={submit} noValidate aria-labelledby="recovery-title">
      <h1 id="recovery-title" className="auth-title">{t('auth.recovery.title')}</h1>
      <p className="auth-subtitle">{t('auth.recovery.subtitle')}</p>
      {sent && <Message severity="success" text={sent} className="auth-message" role="status" />}
      {error && <Message severity="error" text={error} className="auth-message" role="alert" />}
      <FieldShell id="recovery-email" label={t('auth.recovery.email')}>
        <InputText id="recovery-email" type="email" autoComplete="email" autoFocus value={email} onChange={(e) => setEmail(e.target.value)} />
      </FieldShell>
      <Button type="submit" label={t('auth.recovery.submit')} icon="pi pi-envelope" loading={busy} disabled={!!sent} className="auth-submit" />
      <Link to={publicPath('login')} className="auth-link">
        {t('auth.recovery.back')}
      </Link>
    </form>
  )
}
