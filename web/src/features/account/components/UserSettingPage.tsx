import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/Alert'
import { IconCoins } from '@/components/ui/icons'
import { LoadingBlock, Spinner } from '@/components/ui/Spinner'
import { useAuth } from '@/features/auth/hooks/useAuth'
import { updateSessionUser } from '@/features/auth/session'
import { MSG_NAME, MSG_PASSWORD_MISMATCH, passwordProblem } from '@/features/auth/validation'
import { creditsAtom, refreshCreditsAtom } from '@/features/credits/stores/credits'
import { ApiError, errorMessage } from '@/lib/api'
import { formatCredits } from '@/lib/format'
import { toast } from '@/lib/toast'
import { useAsync } from '@/lib/useAsync'
import { getUserInfo, updatePassword, updateUserInfo } from '../api/account'

function ProfileCard({ email, name: initialName }: { email: string; name: string }) {
  const id = useId()
  const [name, setName] = useState(initialName)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!name.trim()) {
      setError(MSG_NAME)
      return
    }
    setBusy(true)
    try {
      const info = await updateUserInfo({ name: name.trim() })
      updateSessionUser({ userName: info.userName })
      setName(info.userName)
      toast.success('Your name has been saved.')
    } catch (err) {
      toast.error(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="card settings__card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card__title">
        Profile
      </h2>
      <form className="settings__form" onSubmit={submit} noValidate>
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
            value={name}
            onChange={(e) => {
              setName(e.target.value)
              setError(null)
            }}
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
          <button type="submit" className="btn btn--primary" disabled={busy} data-testid="settings-name-save">
            {busy && <Spinner label="Saving" />}
            Save name
          </button>
        </div>
      </form>
    </section>
  )
}

type PasswordErrors = { current?: string; next?: string; confirm?: string }

function PasswordCard() {
  const id = useId()
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [confirm, setConfirm] = useState('')
  const [errors, setErrors] = useState<PasswordErrors>({})
  const [busy, setBusy] = useState(false)
  const clear = (key: keyof PasswordErrors) => setErrors((prev) => ({ ...prev, [key]: undefined }))

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const found: PasswordErrors = {}
    if (!current) found.current = 'Please enter your current password.'
    const problem = passwordProblem(next)
    if (problem) found.next = problem
    else if (next !== confirm) found.confirm = MSG_PASSWORD_MISMATCH
    setErrors(found)
    if (Object.keys(found).length) return
    setBusy(true)
    try {
      await updatePassword({ currentPassword: current, newPassword: next })
      setCurrent('')
      setNext('')
      setConfirm('')
      toast.success('Your password has been changed.')
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setErrors({ current: err.message })
      else toast.error(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  const field = (
    key: keyof PasswordErrors,
    label: string,
    value: string,
    set: (v: string) => void,
    autoComplete: string,
    hint?: string,
  ) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        className={`input${errors[key] ? ' input--invalid' : ''}`}
        type="password"
        autoComplete={autoComplete}
        value={value}
        onChange={(e) => {
          set(e.target.value)
          clear(key)
        }}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] || hint ? `${id}-${key}-msg` : undefined}
        data-testid={`settings-password-${key}`}
      />
      {errors[key] ? (
        <p id={`${id}-${key}-msg`} className="field-error">
          {errors[key]}
        </p>
      ) : (
        hint && (
          <p id={`${id}-${key}-msg`} className="field-hint">
            {hint}
          </p>
        )
      )}
    </div>
  )

  return (
    <section className="card settings__card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card__title">
        Change password
      </h2>
      <form className="settings__form" onSubmit={submit} noValidate>
        {field('current', 'Current password', current, setCurrent, 'current-password')}
        {field('next', 'New password', next, setNext, 'new-password', '8 to 128 characters.')}
        {field('confirm', 'Confirm new password', confirm, setConfirm, 'new-password')}
        <div>
          <button type="submit" className="btn btn--primary" disabled={busy} data-testid="settings-password-save">
            {busy && <Spinner label="Saving" />}
            Change password
          </button>
        </div>
      </form>
    </section>
  )
}

function CreditCard({ highlighted }: { highlighted: boolean }) {
  const id = useId()
  const ref = useRef<HTMLElement>(null)
  const { credits } = useAtomValue(creditsAtom)
  const refreshCredits = useSetAtom(refreshCreditsAtom)

  useEffect(() => {
    void refreshCredits()
  }, [refreshCredits])

  useEffect(() => {
    if (highlighted) ref.current?.scrollIntoView({ block: 'center' })
  }, [highlighted])

  const value = (n: number | undefined) => (n === undefined ? '–' : formatCredits(n))

  return (
    <section
      ref={ref}
      id="credit"
      className={`card settings__card${highlighted ? ' card--highlight' : ''}`}
      aria-labelledby={`${id}-title`}
      data-testid="settings-credit"
      data-highlighted={highlighted ? 'true' : 'false'}
    >
      <h2 id={`${id}-title`} className="card__title settings__credit-title">
        <IconCoins /> Credit
      </h2>
      <dl className="credit-stats">
        <div>
          <dt>Free</dt>
          <dd data-testid="settings-credit-free">{value(credits?.free)}</dd>
        </div>
        <div>
          <dt>Paid</dt>
          <dd data-testid="settings-credit-paid">{value(credits?.paid)}</dd>
        </div>
        <div className="credit-stats__total">
          <dt>Total</dt>
          <dd data-testid="settings-credit-total">{value(credits?.total)}</dd>
        </div>
      </dl>
    </section>
  )
}

/** /user-setting: name, password and the credit balance (?from=credit highlights it). */
export function UserSettingPage() {
  const { user, openLoginPopup } = useAuth()
  const [params] = useSearchParams()
  const highlighted = params.get('from') === 'credit'
  const email = user?.userEmail ?? ''
  const info = useAsync(`userInfo:${email}`, (signal) => (email ? getUserInfo(signal) : Promise.resolve(null)))

  if (!user) {
    return (
      <div className="page">
        <header className="page-header">
          <h1>User Setting</h1>
        </header>
        <div className="empty-state" data-testid="settings-login-required">
          <p className="empty-state__title">Log in to see your settings.</p>
          <button type="button" className="btn btn--primary" onClick={() => openLoginPopup()}>
            Login
          </button>
        </div>
      </div>
    )
  }

  return (
    <div className="page settings">
      <header className="page-header">
        <h1>User Setting</h1>
        <p className="page-header__sub">{user.userEmail}</p>
      </header>
      {info.error && (
        <Alert tone="warning" title="Your profile could not be loaded.">
          {info.error}
        </Alert>
      )}
      <div className="settings__grid">
        <CreditCard highlighted={highlighted} />
        {info.data ? (
          <ProfileCard key={info.data.userId} email={info.data.userEmail} name={info.data.userName} />
        ) : info.error ? (
          <ProfileCard key="session" email={user.userEmail} name={user.userName} />
        ) : (
          <section className="card settings__card">
            <LoadingBlock label="Loading your profile…" />
          </section>
        )}
        <PasswordCard />
      </div>
    </div>
  )
}
