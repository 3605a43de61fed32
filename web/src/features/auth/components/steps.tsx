import { useId, useState, type FormEvent, type ReactNode } from 'react'
import { Spinner } from '@/components/ui/Spinner'
import { OTP_LENGTH } from '@/config'
import { toast } from '@/lib/toast'
import { authErrorMessage } from '../errors'
import {
  MSG_BAD_EMAIL,
  MSG_NAME,
  MSG_OTP,
  MSG_PASSWORD_MISMATCH,
  isValidEmail,
  normalizeEmail,
  onlyDigits,
  passwordProblem,
} from '../validation'

// The steps shared by sign-up (email → code → name and password) and forgot
// password (email → code → new password), on the /signup and
// /forgot-password screens and in the dialogs opened from the login modal.

/** Runs an async action with a busy flag; failures are toasted. Returns whether it succeeded. */
function useSubmit() {
  const [busy, setBusy] = useState(false)
  const run = async (action: () => Promise<void>): Promise<boolean> => {
    if (busy) return false
    setBusy(true)
    try {
      await action()
      return true
    } catch (err) {
      toast.error(authErrorMessage(err))
      return false
    } finally {
      setBusy(false)
    }
  }
  return { busy, run }
}

function SubmitButton({ busy, children, testId }: { busy: boolean; children: ReactNode; testId: string }) {
  return (
    <button type="submit" className="btn btn--primary btn--block" disabled={busy} data-testid={testId}>
      {busy && <Spinner label="Please wait" />}
      {children}
    </button>
  )
}

interface EmailStepProps {
  intro: ReactNode
  initialEmail: string
  submitLabel: string
  /** Sends the code; throws on failure. */
  onSubmit: (email: string) => Promise<void>
}

export function EmailStep({ intro, initialEmail, submitLabel, onSubmit }: EmailStepProps) {
  const id = useId()
  const [email, setEmail] = useState(initialEmail)
  const [error, setError] = useState<string | null>(null)
  const { busy, run } = useSubmit()

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!isValidEmail(email.trim())) {
      setError(MSG_BAD_EMAIL)
      return
    }
    void run(() => onSubmit(normalizeEmail(email)))
  }

  return (
    <form className="auth-form__fields" onSubmit={submit} noValidate data-testid="step-email">
      <p className="muted">{intro}</p>
      <div className="field">
        <label htmlFor={`${id}-email`}>Email</label>
        <input
          id={`${id}-email`}
          className={`input${error ? ' input--invalid' : ''}`}
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value)
            setError(null)
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoFocus
          data-testid="step-email-input"
        />
        {error && (
          <p id={`${id}-error`} className="field-error">
            {error}
          </p>
        )}
      </div>
      <SubmitButton busy={busy} testId="step-email-submit">
        {submitLabel}
      </SubmitButton>
    </form>
  )
}

interface CodeStepProps {
  email: string
  onSubmit: (otp: string) => Promise<void>
  onResend: () => Promise<void>
  onChangeEmail: () => void
}

export function CodeStep({ email, onSubmit, onResend, onChangeEmail }: CodeStepProps) {
  const id = useId()
  const [otp, setOtp] = useState('')
  const [error, setError] = useState<string | null>(null)
  const { busy, run } = useSubmit()
  const resend = useSubmit()

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (otp.length !== OTP_LENGTH) {
      setError(MSG_OTP)
      return
    }
    void run(() => onSubmit(otp))
  }

  return (
    <form className="auth-form__fields" onSubmit={submit} noValidate data-testid="step-code">
      <p className="muted">
        We sent a {OTP_LENGTH}-digit code to <strong>{email}</strong>. It may take a minute to arrive.
      </p>
      <div className="field">
        <label htmlFor={`${id}-otp`}>Code</label>
        <input
          id={`${id}-otp`}
          className={`input input--code${error ? ' input--invalid' : ''}`}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={OTP_LENGTH}
          value={otp}
          onChange={(e) => {
            setOtp(onlyDigits(e.target.value))
            setError(null)
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoFocus
          data-testid="step-code-input"
        />
        {error && (
          <p id={`${id}-error`} className="field-error">
            {error}
          </p>
        )}
      </div>
      <SubmitButton busy={busy} testId="step-code-submit">
        Verify code
      </SubmitButton>
      <p className="auth-form__switch">
        <button
          type="button"
          className="link-btn"
          disabled={resend.busy}
          onClick={() =>
            void resend.run(onResend).then((ok) => {
              if (ok) toast.success(`A new code has been sent to ${email}.`)
            })
          }
          data-testid="step-code-resend"
        >
          Send a new code
        </button>
        {' · '}
        <button type="button" className="link-btn" onClick={onChangeEmail}>
          Use another email
        </button>
      </p>
    </form>
  )
}

interface PasswordStepProps {
  /** Ask for the user's name too (sign-up). */
  withName?: boolean
  /** Ask for the password twice (reset). */
  withConfirm?: boolean
  /** Show the Remember me checkbox (sign-up logs in). */
  withRemember?: boolean
  submitLabel: string
  onSubmit: (values: { name: string; password: string; rememberMe: boolean }) => Promise<void>
}

export function PasswordStep({ withName, withConfirm, withRemember, submitLabel, onSubmit }: PasswordStepProps) {
  const id = useId()
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [rememberMe, setRememberMe] = useState(true)
  const [errors, setErrors] = useState<{ name?: string; password?: string; confirm?: string }>({})
  const { busy, run } = useSubmit()
  const clearError = (key: keyof typeof errors) => setErrors((prev) => ({ ...prev, [key]: undefined }))

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const next: typeof errors = {}
    if (withName && !name.trim()) next.name = MSG_NAME
    const problem = passwordProblem(password)
    if (problem) next.password = problem
    if (withConfirm && !problem && confirm !== password) next.confirm = MSG_PASSWORD_MISMATCH
    setErrors(next)
    if (Object.keys(next).length) return
    void run(() => onSubmit({ name: name.trim(), password, rememberMe }))
  }

  const fieldError = (key: keyof typeof errors) =>
    errors[key] && (
      <p id={`${id}-${key}-error`} className="field-error">
        {errors[key]}
      </p>
    )
  const describedBy = (key: keyof typeof errors) => (errors[key] ? `${id}-${key}-error` : `${id}-hint`)

  return (
    <form className="auth-form__fields" onSubmit={submit} noValidate data-testid="step-password">
      {withName && (
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            className={`input${errors.name ? ' input--invalid' : ''}`}
            type="text"
            autoComplete="name"
            maxLength={100}
            value={name}
            onChange={(e) => {
              setName(e.target.value)
              clearError('name')
            }}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? `${id}-name-error` : undefined}
            autoFocus
            data-testid="step-name-input"
          />
          {fieldError('name')}
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-password`}>{withName ? 'Password' : 'New password'}</label>
        <input
          id={`${id}-password`}
          className={`input${errors.password ? ' input--invalid' : ''}`}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value)
            clearError('password')
          }}
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={describedBy('password')}
          autoFocus={!withName}
          data-testid="step-password-input"
        />
        {fieldError('password') || (
          <p id={`${id}-hint`} className="field-hint">
            8 to 128 characters.
          </p>
        )}
      </div>
      {withConfirm && (
        <div className="field">
          <label htmlFor={`${id}-confirm`}>Confirm new password</label>
          <input
            id={`${id}-confirm`}
            className={`input${errors.confirm ? ' input--invalid' : ''}`}
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => {
              setConfirm(e.target.value)
              clearError('confirm')
            }}
            aria-invalid={errors.confirm ? true : undefined}
            aria-describedby={errors.confirm ? `${id}-confirm-error` : undefined}
            data-testid="step-confirm-input"
          />
          {fieldError('confirm')}
        </div>
      )}
      {withRemember && (
        <label className="checkbox">
          <input type="checkbox" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} />
          Remember me
        </label>
      )}
      <SubmitButton busy={busy} testId="step-password-submit">
        {submitLabel}
      </SubmitButton>
    </form>
  )
}
