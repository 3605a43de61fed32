import { zodResolver } from '@hookform/resolvers/zod'
import { useSetAtom } from 'jotai'
import { useId } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { z } from 'zod'
import { errorMessage } from '@/lib/api'
import { emailSchema } from '@/lib/validation'
import { updateGenerationAtom, type FlowGeneration } from '@/features/create/store'
import { useUpdateGuestEmail } from '../api/updateGuestEmail'
import styles from './NotifyEmailForm.module.css'

const notifySchema = z.object({ email: emailSchema })
type NotifyValues = z.infer<typeof notifySchema>

export function NotifyEmailForm({ generation }: { generation: FlowGeneration }) {
  const updateGeneration = useSetAtom(updateGenerationAtom)
  const update = useUpdateGuestEmail()
  const inputId = useId()
  const errorId = useId()
  const {
    register,
    handleSubmit,
    control,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm<NotifyValues>({
    resolver: zodResolver(notifySchema),
    defaultValues: { email: '' },
    reValidateMode: 'onSubmit',
  })
  const error = errors.email?.message
  const empty = !useWatch({ control, name: 'email' }).trim()

  if (generation.notifyEmail) {
    return (
      <p className={`${styles.notify} ${styles.done}`} role="status" data-testid="notify-confirmation">
        We will email <strong>{generation.notifyEmail}</strong> when your images are ready.
      </p>
    )
  }

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      await update.mutateAsync({ email, serviceId: generation.id })
      updateGeneration({ ...generation, notifyEmail: email })
    } catch (err) {
      setError('email', { message: errorMessage(err) })
    }
  })

  return (
    <form className={styles.notify} onSubmit={onSubmit} noValidate>
      <label htmlFor={inputId} className={styles.label}>
        Email me when it is ready <span className="muted">(optional)</span>
      </label>
      <div className={styles.row}>
        <input
          id={inputId}
          type="email"
          className={`input${error ? ' input--invalid' : ''}`}
          placeholder="you@company.com"
          autoComplete="email"
          {...register('email', { onChange: () => clearErrors('email') })}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? errorId : undefined}
          data-testid="notify-email"
        />
        <button type="submit" className="btn btn--secondary" disabled={update.isPending || empty}>
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
