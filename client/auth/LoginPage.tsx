import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom'
import { publicPath } from '../../schemas/public-pages'
import { errorText } from '../api/errors'
import { useLoadedManifest } from '../api/manifest'
import { useI18n } from '../i18n/i18n'
import { FieldShell } from '../ui/FieldShell'
import { Button } from '../ui/plain/Button'
import { InputText } from '../ui/plain/InputText'
import { Message } from '../ui/plain/Message'
import { whenIdle } from '../ui/lazy-component'
import { PasswordInput } from '../ui/plain/PasswordInput'
import { safeRedirect } from './safe-redirect'
import { signIn } from './session-actions'

export interface LoginPageProps {
  /** Fetches ahead the code of the pages that may follow; the app's router knows them, this page does not. */
  preload: { signedIn: () => Promise<unknown>; recovery: () => Promise<unknown>; signup: () => Promise<unknown> }
}

export function LoginPage({ preload }: LoginPageProps) {
  const { t } = useI18n()
  const manifest = useLoadedManifest()
  const client = useQueryClient()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const signedInHere = useRef(false)

  // The signed-in app's code downloads while the user types, so signing in waits for the server
  // only; the recovery page's too, so following "¿Has olvidado tu contraseña?" shows it at once
  // (while a page's chunk loads the previous page stays on screen, and typing there is lost).
  const signup = manifest.signup === true
  useEffect(
    () => whenIdle(() => void Promise.all([preload.signedIn(), preload.recovery(), ...(signup ? [preload.signup()] : [])]).catch(() => undefined)),
    [preload, signup],
  )

  // Spec §4: an authenticated user opening the login page goes to the root path.
  if (manifest.authenticated && !signedInHere.current) return <Navigate to="/" replace />

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!username.trim() || !password) {
      setError(t('auth.login.required'))
      return
    }
    setBusy(true)
    setError(null)
    // Already there unless the form was sent at once; then it downloads while the credentials are checked.
    void preload.signedIn().catch(() => undefined)
    try {
      signedInHere.current = true
      await signIn(client, username.trim(), password)
      navigate(safeRedirect(params.get('redirect')), { replace: true })
    } catch (err) {
      signedInHere.current = false
      setError(errorText(err))
      setBusy(false)
    }
  }

  return (
    <form className="auth-form" onSubmit={submit} noValidate aria-labelledby="login-title">
      <h1 id="login-title" className="auth-title">{t('auth.login.title')}</h1>
      <p className="auth-subtitle">{t('auth.login.subtitle')}</p>
      {error && <Message severity="error" text={error} className="auth-message" role="alert" />}
      <FieldShell id="login-username" label={t('auth.login.username')}>
        <InputText
          id="login-username"
          type="email"
          autoComplete="username"
          autoFocus
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          invalid={!!error && !username.trim()}
        />
      </FieldShell>
      <FieldShell id="login-password" label={t('auth.login.password')}>
        <PasswordInput
          id="login-password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          invalid={!!error && !password}
        />
      </FieldShell>
      <Button type="submit" label={t('auth.login.submit')} icon="pi pi-sign-in" loading={busy} className="auth-submit" />
      <Link to={publicPath('recovery')} className="auth-link">
        {t('auth.login.forgot')}
      </Link>
      {signup && (
        <Link to={publicPath('signup')} className="auth-link auth-link--secondary">
          {t('auth.login.signup')}
        </Link>
      )}
    </form>
  )
}
