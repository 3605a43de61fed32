import { useState } from 'react'
import { Spinner } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import styles from './ApiKeysSection.module.css'

/**
 * A destructive action asked twice (revoking an API key, deleting a webhook endpoint): the
 * action's button, then the question with "Yes, …" and Keep. When `onConfirm` fails, its error
 * is toasted and the question closes. Its data-testid values are `testId` and `${testId}-confirm`.
 */
export function ConfirmAction({
  action,
  question,
  confirm,
  pendingLabel,
  groupLabel,
  pending,
  testId,
  onConfirm,
}: {
  /** The first button: "Revoke". */
  action: string
  /** "Revoke this key? Requests with it will fail." */
  question: string
  /** The confirming button: "Yes, revoke". */
  confirm: string
  /** The spinner's label while pending: "Revoking". */
  pendingLabel: string
  /** The aria-label of the question's group. */
  groupLabel: string
  pending: boolean
  testId: string
  onConfirm: () => Promise<void>
}) {
  const [confirming, setConfirming] = useState(false)

  const doConfirm = async () => {
    try {
      await onConfirm()
    } catch (err) {
      toast.error(errorMessage(err))
      setConfirming(false)
    }
  }

  if (!confirming) {
    return (
      <button type="button" className="btn btn--ghost btn--small" onClick={() => setConfirming(true)} data-testid={testId}>
        {action}
      </button>
    )
  }
  return (
    <span className={styles.row} role="group" aria-label={groupLabel}>
      <span>{question}</span>
      <button
        type="button"
        className={`btn btn--small ${styles.btnDanger}`}
        onClick={() => void doConfirm()}
        disabled={pending}
        data-testid={`${testId}-confirm`}
      >
        {pending && <Spinner label={pendingLabel} />}
        {confirm}
      </button>
      <button type="button" className="btn btn--ghost btn--small" onClick={() => setConfirming(false)} disabled={pending}>
        Keep
      </button>
    </span>
  )
}
