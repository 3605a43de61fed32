import { useId, useState, type FormEvent } from 'react'
import { Spinner } from '@/components/ui/Spinner'
import { ApiError, errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import { useUpdateUserInfo } from '../api/updateUserInfo'
import styles from '../account.module.css'

/**
 * An Indian business's GSTIN, put on the invoices of its later purchases. The server checks it
 * (form, state code, check character) and says what is wrong; that message shows on the field.
 * Saving it empty removes it.
 */
export function TaxDetailsCard({ gstin }: { gstin: string | null }) {
  const id = useId()
  const update = useUpdateUserInfo()
  const [value, setValue] = useState(gstin ?? '')
  const [error, setError] = useState<string | null>(null)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    try {
      const info = await update.mutateAsync({ gstin: value.trim() })
      setValue(info.gstin ?? '')
      setError(null)
      toast.success(info.gstin ? 'Your GSTIN has been saved.' : 'Your GSTIN has been removed.')
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) setError(err.message.replace(/^gstin: /, ''))
      else toast.error(errorMessage(err))
    }
  }

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card__title">
        Tax details
      </h2>
      <form className={styles.settingsForm} onSubmit={(event) => void submit(event)} noValidate>
        <div className="field">
          <label htmlFor={`${id}-gstin`}>GSTIN (India, optional)</label>
          <input
            id={`${id}-gstin`}
            className={`input${error ? ' input--invalid' : ''}`}
            type="text"
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            placeholder="e.g. 27AAPFU0939F1ZV"
            value={value}
            onChange={(event) => {
              setValue(event.target.value)
              setError(null)
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-gstin-msg`}
            data-testid="settings-gstin"
          />
          {error ? (
            <p id={`${id}-gstin-msg`} className="field-error" data-testid="settings-gstin-error">
              {error}
            </p>
          ) : (
            <p id={`${id}-gstin-msg`} className="field-hint">
              Shown on the invoices of your next purchases, with the GST they include.
            </p>
          )}
        </div>
        <div>
          <button type="submit" className="btn btn--primary" disabled={update.isPending} data-testid="settings-gstin-save">
            {update.isPending && <Spinner label="Saving" />}
            Save GSTIN
          </button>
        </div>
      </form>
    </section>
  )
}
