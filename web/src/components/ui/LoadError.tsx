import { errorMessage } from '@/lib/api'
import { Alert } from './Alert'

interface LoadErrorProps {
  /** What could not be loaded, e.g. "Your payments could not be loaded". */
  title: string
  error: unknown
  /** Asks again (the query's refetch). */
  onRetry: () => void
  retryLabel?: 'Retry' | 'Try again'
  testId?: string
}

/** A read that failed: the reason a person can act on, and a button that asks again. */
export function LoadError({ title, error, onRetry, retryLabel = 'Retry', testId }: LoadErrorProps) {
  return (
    <Alert
      tone="error"
      title={title}
      testId={testId}
      action={
        <button type="button" className="btn btn--secondary btn--small" onClick={onRetry}>
          {retryLabel}
        </button>
      }
    >
      {errorMessage(error)}
    </Alert>
  )
}
