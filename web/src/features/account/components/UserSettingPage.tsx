import { zodResolver } from '@hookform/resolvers/zod'
import { useId } from 'react'
import { useForm, type UseFormRegisterReturn } from 'react-hook-form'
import { useSearchParams } from 'react-router'
import { BalanceCard } from '@/components/BalanceCard'
import { Alert } from '@/components/ui/Alert'
import { LoadingBlock, Spinner } from '@/components/ui/Spinner'
import { LoginRequiredPage } from '@/components/LoginRequiredPage'
import { useAuth } from '@/hooks/useAuth'
import { ApiError, errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import { updateSessionUser } from '@/stores/auth'
import { useUserInfo } from '@/api/userInfo'
import { useUpdatePassword } from '../api/updatePassword'
import { useUpdateUserInfo } from '../api/updateUserInfo'
import { changePasswordSchema, profileSchema, type ChangePasswordValues, type ProfileValues } from '../schemas'
import styles from '../account.module.css'
import { ApiKeysSection } from './ApiKeysSection'
import { TaxDetailsCard } from './TaxDetailsCard'
import { WebhooksSection } from './WebhooksSection'

function ProfileCard({ email, name: initialName }: { email: string; name: string }) {
  const id = useId()
  const update = useUpdateUserInfo()
  const {
    register,
    handleSubmit,
    reset,
    clearErrors,
    formState: { errors },
  } = useForm<ProfileValues>({
    resolver: zodResolver(profileSchema),
    defaultValues: { name: initialName },
    reValidateMode: 'onSubmit',
  })
  const error = errors.name?.message

  const submit = handleSubmit(async ({ name }) => {
    try {
      const info = await update.mutateAsync({ name })
      updateSessionUser({ userName: info.userName })
      reset({ name: info.userName })
      toast.success('Your name has been saved.')
    } catch (err) {
      toast.error(errorMessage(err))
    }
  })

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card__title">
        Profile
      </h2>
      <form className={styles.settingsForm} onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input id={`${id}-email`} className="input" type="email" value={email} readOnly disabled />
        </div>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            className={`input${error ? ' input--invalid' : ''}`}
            type="text"
            autoComplete="name"
            maxLength={100}
            {...register('name', { onChange: () => clearErrors('name') })}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-name-error` : undefined}
            data-testid="settings-name"
          />
          {error && (
            <p id={`${id}-name-error`} className="field-error">
              {error}
            </p>
          )}
        </div>
        <div>
          <button type="submit" className="btn btn--primary" disabled={update.isPending} data-testid="settings-name-save">
            {update.isPending && <Spinner label="Saving" />}
            Save name
          </button>
        </div>
      </form>
    </section>
  )
}

interface PasswordFieldProps {
  id: string
  name: keyof ChangePasswordValues
  label: string
  autoComplete: string
  error?: string
  hint?: string
  registration: UseFormRegisterReturn
}

function PasswordField({ id, name, label, autoComplete, error, hint, registration }: PasswordFieldProps) {
  const msgId = `${id}-${name}-msg`
  return (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        className={`input${error ? ' input--invalid' : ''}`}
        type="password"
        autoComplete={autoComplete}
        {...registration}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? msgId : undefined}
        data-testid={`settings-password-${name}`}
      />
      {error ? (
        <p id={msgId} className="field-error">
          {error}
        </p>
      ) : (
        hint && (
          <p id={msgId} className="field-hint">
            {hint}
          </p>
        )
      )}
    </div>
  )
}

function PasswordCard() {
  const id = useId()
  const update = useUpdatePassword()
  const {
    register,
    handleSubmit,
    reset,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { current: '', next: '', confirm: '' },
    reValidateMode: 'onSubmit',
  })
  const field = (name: keyof ChangePasswordValues) => register(name, { onChange: () => clearErrors(name) })

  const submit = handleSubmit(async ({ current, next }) => {
    try {
      await update.mutateAsync({ currentPassword: current, newPassword: next })
      reset()
      toast.success('Your password has been changed.')
    } catch (err) {
      // A wrong current password is the server's 400: shown on that field.
      if (err instanceof ApiError && err.status === 400) setError('current', { message: err.message })
      else toast.error(errorMessage(err))
    }
  })

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card__title">
        Change password
      </h2>
      <form className={styles.settingsForm} onSubmit={submit} noValidate>
        <PasswordField
          id={id}
          name="current"
          label="Current password"
          autoComplete="current-password"
          error={errors.current?.message}
          registration={field('current')}
        />
        <PasswordField
          id={id}
          name="next"
          label="New password"
          autoComplete="new-password"
          error={errors.next?.message}
          hint="8 to 128 characters."
          registration={field('next')}
        />
        <PasswordField
          id={id}
          name="confirm"
          label="Confirm new password"
          autoComplete="new-password"
          error={errors.confirm?.message}
          registration={field('confirm')}
        />
        <div>
          <button type="submit" className="btn btn--primary" disabled={update.isPending} data-testid="settings-password-save">
            {update.isPending && <Spinner label="Saving" />}
            Change password
          </button>
        </div>
      </form>
    </section>
  )
}

/** /user-setting: name, password, the credit balance (?from=credit highlights it) and API keys. */
export function UserSettingPage() {
  const { user } = useAuth()
  const [params] = useSearchParams()
  const highlighted = params.get('from') === 'credit'
  const info = useUserInfo(user?.userEmail ?? null)

  if (!user) {
    return <LoginRequiredPage heading="User Setting" title="Log in to see your settings." testId="settings-login-required" />
  }

  return (
    <div className="page">
      <header className="page-header">
        <h1>User Setting</h1>
        <p className="page-header__sub">{user.userEmail}</p>
      </header>
      {info.error && !info.data && (
        <Alert tone="warning" title="Your profile could not be loaded.">
          {errorMessage(info.error)}
        </Alert>
      )}
      <div className={styles.settingsGrid}>
        <BalanceCard
          title="Credit"
          id="credit"
          testId="settings-credit"
          valueTestId="settings-credit"
          highlighted={highlighted}
        />
        {info.data ? (
          <ProfileCard key={info.data.userId} email={info.data.userEmail} name={info.data.userName} />
        ) : info.error ? (
          <ProfileCard key="session" email={user.userEmail} name={user.userName} />
        ) : (
          <section className="card">
            <LoadingBlock label="Loading your profile…" />
          </section>
        )}
        <PasswordCard />
        {info.data && <TaxDetailsCard key={info.data.userId} gstin={info.data.gstin ?? null} />}
      </div>
      <div className={styles.settingsSection}>
        <ApiKeysSection userEmail={user.userEmail} />
      </div>
      <div className={styles.settingsSection}>
        <WebhooksSection userEmail={user.userEmail} />
      </div>
    </div>
  )
}
