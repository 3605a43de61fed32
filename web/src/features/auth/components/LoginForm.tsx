import { useId, useState, type FormEvent } from 'react'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/lib/toast'
import { login } from '../api/auth'
import { authErrorMessage } from '../errors'
import { completeLogin, rememberedEmail } from '../session'
import { MSG_BAD_EMAIL, MSG_REQUIRED, isValidEmail, normalizeEmail } from '../validation'
import { GoogleButton } from './GoogleButton'

interface LoginFormProps {
  onLoggedIn: () => void
  onCreateAccount: () => void
  /** Hidden when absent (the modal on /subscription). */
  onForgotPassword?: () => void
  autoFocus?: boolean
}

/** Google or email + password, with Remember me (spec §2 "Login modal", §5). */
export function LoginForm({ onLoggedIn, onCreateAccount, onForgotPassword, autoFocus }: LoginFormProps) {
  const id = useId()
  const [email, setEmail] = useState(rememberedEmail)
  const [password, setPassword] = useState('')
  const [rememberMe, setRememberMe] = useState(true)
  const [emailError, setEmailError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (busy) return
    if (!email.trim() || !password.trim()) {
      toast.error(MSG_REQUIRED)
      return
    }
    if (!isValidEmail(email.trim())) {
      setEmailError(MSG_BAD_EMAIL)
      return
    }
    setBusy(true)
    try {
      const result = await login({ email: normalizeEmail(email), password, rememberMe })
      completeLogin(result, rememberMe)
      onLoggedIn()
    } catch (err) {
      toast.error(authErrorMessage(err))
      setBusy(false)
    }
  }

  return (
    <div className="auth-form" data-testid="login-form">
      <GoogleButton rememberMe={rememberMe} onLoggedIn={onLoggedIn} />
      <p className="auth-divider">
        <span>or</span>
      </p>
      <form className="auth-form__fields" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input
            id={`${id}-email`}
            className={`input${emailError ? ' input--invalid' : ''}`}
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value)
              setEmailError(null)
            }}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? `${id}-email-error` : undefined}
            autoFocus={autoFocus && !email}
            data-testid="login-email"
          />
          {emailError && (
            <p id={`${id}-email-error`} className="field-error" data-testid="login-email-error">
              {emailError}
            </p>
          )}
        </div>
        <div className="field">
          <div className="field__label-row">
            <label htmlFor={`${id}-password`}>Password</label>
            {onForgotPassword && (
              <button type="button" className="link-btn link-small" onClick={onForgotPassword} data-testid="forgot-password-link">
                Forgot Password?
              </button>
            )}
          </div>
          <input
            id={`${id}-password`}
            className="input"
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoFocus={autoFocus && !!email}
            data-testid="login-password"
          />
        </div>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={rememberMe}
            onChange={(e) => setRememberMe(e.target.checked)}
            data-testid="login-remember"
          />
          Remember me
        </label>
        <button type="submit" className="btn btn--primary btn--block" disabled={busy} data-testid="login-submit">
          {busy && <Spinner label="Logging in" />}
          Login
        </button>
      </form>
      <p className="auth-form__switch">
        New here?{' '}
        <button type="button" className="link-btn" onClick={onCreateAccount} data-testid="create-account-link">
          Create an account
        </button>
      </p>
    </div>
  )
}
