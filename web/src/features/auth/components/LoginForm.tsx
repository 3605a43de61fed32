import { zodResolver } from '@hookform/resolvers/zod'
import { useId } from 'react'
import { useForm, useWatch, type FieldErrors } from 'react-hook-form'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/lib/toast'
import { normalizeEmail } from '@/lib/validation'
import { useLogin } from '../api/login'
import { authErrorMessage } from '../errors'
import { loginSchema, type LoginValues } from '../schemas'
import { completeLogin, rememberedEmail } from '../session'
import { GoogleButton } from './GoogleButton'
import styles from '../auth.module.css'

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
  const login = useLogin()
  const {
    register,
    handleSubmit,
    control,
    clearErrors,
    formState: { errors },
  } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: rememberedEmail(), password: '', rememberMe: true },
    // Spec §5: the inline email error clears when the email is edited (not re-checked as you type).
    reValidateMode: 'onSubmit',
  })
  const rememberMe = useWatch({ control, name: 'rememberMe' })
  const hasEmail = Boolean(useWatch({ control, name: 'email' }))
  const emailError = errors.email?.message

  const onValid = async ({ email, password, rememberMe }: LoginValues) => {
    if (login.isPending) return
    try {
      const result = await login.mutateAsync({ email: normalizeEmail(email), password, rememberMe })
      completeLogin(result, rememberMe)
      toast.clearErrors()
      onLoggedIn()
    } catch (err) {
      toast.error(authErrorMessage(err))
    }
  }
  // 'Please enter all the value' concerns the whole form: a toast, not an inline message. The
  // next error (the server's answer to the completed form) replaces it rather than stack on it.
  const onInvalid = (found: FieldErrors<LoginValues>) => {
    if (found.root?.message) toast.invalid(found.root.message)
  }

  return (
    <div className={styles.authForm} data-testid="login-form">
      <GoogleButton rememberMe={rememberMe} onLoggedIn={onLoggedIn} />
      <p className={styles.authDivider}>
        <span>or</span>
      </p>
      <form className={styles.authFormFields} onSubmit={handleSubmit(onValid, onInvalid)} noValidate>
        <div className="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input
            id={`${id}-email`}
            className={`input${emailError ? ' input--invalid' : ''}`}
            type="email"
            autoComplete="username"
            inputMode="email"
            {...register('email', { onChange: () => clearErrors('email') })}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? `${id}-email-error` : undefined}
            autoFocus={autoFocus && !hasEmail}
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
            autoComplete="current-password"
            {...register('password')}
            autoFocus={autoFocus && hasEmail}
            data-testid="login-password"
          />
        </div>
        <label className="checkbox">
          <input type="checkbox" {...register('rememberMe')} data-testid="login-remember" />
          Remember me
        </label>
        <button type="submit" className="btn btn--primary btn--block" disabled={login.isPending} data-testid="login-submit">
          {login.isPending && <Spinner label="Logging in" />}
          Login
        </button>
      </form>
      <p className={styles.authFormSwitch}>
        New here?{' '}
        <button type="button" className="link-btn" onClick={onCreateAccount} data-testid="create-account-link">
          Create an account
        </button>
      </p>
    </div>
  )
}
