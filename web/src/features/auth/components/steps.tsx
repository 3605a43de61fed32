import { zodResolver } from '@hookform/resolvers/zod'
import { useId, useState, type ReactNode } from 'react'
import { useForm } from 'react-hook-form'
import { Spinner } from '@/components/ui/Spinner'
import { OTP_LENGTH } from '@/config'
import { toast } from '@/lib/toast'
import { normalizeEmail, onlyDigits } from '@/lib/validation'
import { authErrorMessage } from '../errors'
import {
  codeStepSchema,
  emailStepSchema,
  passwordStepSchema,
  type CodeStepValues,
  type EmailStepValues,
  type PasswordStepValues,
} from '../schemas'
import styles from '../auth.module.css'

// The steps shared by sign-up (email → code → name and password) and forgot
// password (email → code → new password), on the /signup and
// /forgot-password screens and in the dialogs opened from the login modal.
// Each step's action is a mutation (features/auth/api); failures are toasted.

/** Runs the step's action; a failure is toasted, a success takes earlier failures' toasts
 *  away. Returns whether it succeeded. */
async function attempt(action: () => Promise<void>): Promise<boolean> {
  try {
    await action()
    toast.clearErrors()
    return true
  } catch (err) {
    toast.error(authErrorMessage(err))
    return false
  }
}

function SubmitButton({ busy, children, testId }: { busy: boolean; children: ReactNode; testId: string }) {
  return (
    <button type="submit" className="btn btn--primary btn--block" disabled={busy} data-testid={testId}>
      {busy && <Spinner label="Please wait" />}
      {children}
    </button>
  )
}

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null
  return (
    <p id={id} className="field-error">
      {message}
    </p>
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
  const {
    register,
    handleSubmit,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<EmailStepValues>({
    resolver: zodResolver(emailStepSchema),
    defaultValues: { email: initialEmail },
    reValidateMode: 'onSubmit',
  })
  const error = errors.email?.message

  return (
    <form
      className={styles.authFormFields}
      onSubmit={handleSubmit(({ email }) => attempt(() => onSubmit(normalizeEmail(email))))}
      noValidate
      data-testid="step-email"
    >
      <p className="muted">{intro}</p>
      <div className="field">
        <label htmlFor={`${id}-email`}>Email</label>
        <input
          id={`${id}-email`}
          className={`input${error ? ' input--invalid' : ''}`}
          type="email"
          autoComplete="email"
          inputMode="email"
          {...register('email', { onChange: () => clearErrors('email') })}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoFocus
          data-testid="step-email-input"
        />
        <FieldError id={`${id}-error`} message={error} />
      </div>
      <SubmitButton busy={isSubmitting} testId="step-email-submit">
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
  const [resending, setResending] = useState(false)
  const {
    register,
    handleSubmit,
    setValue,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<CodeStepValues>({
    resolver: zodResolver(codeStepSchema),
    defaultValues: { otp: '' },
    reValidateMode: 'onSubmit',
  })
  const error = errors.otp?.message
  const otp = register('otp')

  const resend = async () => {
    setResending(true)
    const ok = await attempt(onResend)
    setResending(false)
    if (ok) toast.success(`A new code has been sent to ${email}.`)
  }

  return (
    <form
      className={styles.authFormFields}
      onSubmit={handleSubmit(({ otp }) => attempt(() => onSubmit(otp)))}
      noValidate
      data-testid="step-code"
    >
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
          {...otp}
          onChange={(e) => {
            // Only digits can be typed.
            setValue('otp', onlyDigits(e.target.value, OTP_LENGTH))
            clearErrors('otp')
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoFocus
          data-testid="step-code-input"
        />
        <FieldError id={`${id}-error`} message={error} />
      </div>
      <SubmitButton busy={isSubmitting} testId="step-code-submit">
        Verify code
      </SubmitButton>
      <p className={styles.authFormSwitch}>
        <button
          type="button"
          className="link-btn"
          disabled={resending}
          onClick={() => void resend()}
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
  const [schema] = useState(() => passwordStepSchema({ withName, withConfirm }))
  const {
    register,
    handleSubmit,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<PasswordStepValues>({
    resolver: zodResolver(schema),
    defaultValues: { name: '', password: '', confirm: '', rememberMe: true },
    reValidateMode: 'onSubmit',
  })
  const errorId = (key: keyof PasswordStepValues) => `${id}-${key}-error`

  return (
    <form
      className={styles.authFormFields}
      onSubmit={handleSubmit(({ name, password, rememberMe }) =>
        attempt(() => onSubmit({ name: name.trim(), password, rememberMe })),
      )}
      noValidate
      data-testid="step-password"
    >
      {withName && (
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            className={`input${errors.name ? ' input--invalid' : ''}`}
            type="text"
            autoComplete="name"
            maxLength={100}
            {...register('name', { onChange: () => clearErrors('name') })}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? errorId('name') : undefined}
            autoFocus
            data-testid="step-name-input"
          />
          <FieldError id={errorId('name')} message={errors.name?.message} />
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-password`}>{withName ? 'Password' : 'New password'}</label>
        <input
          id={`${id}-password`}
          className={`input${errors.password ? ' input--invalid' : ''}`}
          type="password"
          autoComplete="new-password"
          {...register('password', { onChange: () => clearErrors('password') })}
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? errorId('password') : `${id}-hint`}
          autoFocus={!withName}
          data-testid="step-password-input"
        />
        {errors.password ? (
          <FieldError id={errorId('password')} message={errors.password.message} />
        ) : (
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
            {...register('confirm', { onChange: () => clearErrors('confirm') })}
            aria-invalid={errors.confirm ? true : undefined}
            aria-describedby={errors.confirm ? errorId('confirm') : undefined}
            data-testid="step-confirm-input"
          />
          <FieldError id={errorId('confirm')} message={errors.confirm?.message} />
        </div>
      )}
      {withRemember && (
        <label className="checkbox">
          <input type="checkbox" {...register('rememberMe')} />
          Remember me
        </label>
      )}
      <SubmitButton busy={isSubmitting} testId="step-password-submit">
        {submitLabel}
      </SubmitButton>
    </form>
  )
}
