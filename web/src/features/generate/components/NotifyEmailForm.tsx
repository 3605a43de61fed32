import { useSetAtom } from 'jotai'
import { useId, useState, type FormEvent } from 'react'
import { updateJobAtom, type GeneratedJob } from '@/features/flow/stores/stepsFlow'
import { errorMessage } from '@/lib/api'
import { updateGuestEmail } from '../api/generate'

// Spec: no spaces, one @, a dot in the domain.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function NotifyEmailForm({ job }: { job: GeneratedJob }) {
  const updateJob = useSetAtom(updateJobAtom)
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const inputId = useId()
  const errorId = useId()

  if (job.notifyEmail) {
    return (
      <p className="notify notify--done" role="status" data-testid="notify-confirmation">
        We will email <strong>{job.notifyEmail}</strong> when your images are ready.
      </p>
    )
  }

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault()
    const value = email.trim()
    if (!EMAIL_RE.test(value)) {
      setError('Please enter correct email')
      return
    }
    setBusy(true)
    try {
      await updateGuestEmail({ email: value, serviceId: job.serviceId })
      updateJob({ ...job, notifyEmail: value })
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="notify" onSubmit={onSubmit} noValidate>
      <label htmlFor={inputId} className="notify__label">
        Email me when it is ready <span className="muted">(optional)</span>
      </label>
      <div className="notify__row">
        <input
          id={inputId}
          type="email"
          className={`input${error ? ' input--invalid' : ''}`}
          placeholder="you@company.com"
          autoComplete="email"
          value={email}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setEmail(e.target.value)
            setError(null)
          }}
          data-testid="notify-email"
        />
        <button type="submit" className="btn btn--secondary" disabled={busy || !email.trim()}>
          Notify me
        </button>
      </div>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  )
}
