import { useId, useState, type ReactNode } from 'react'
import { toast } from '@/lib/toast'
import styles from './ApiKeysSection.module.css'

/**
 * A secret shown once, just after it was created (an API key's secret, a webhook's signing
 * secret): a title, the warning that it will not be shown again, the secret, Copy and Done.
 * Its data-testid values are `${testIdPrefix}-secret-panel`, `-secret`, `-copy` and `-dismiss`.
 */
export function SecretOnce({
  title,
  secret,
  noun,
  secretLabel,
  testIdPrefix,
  onDismiss,
}: {
  title: ReactNode
  secret: string
  /** What the secret is called in the warning and the copy error: "key", "secret". */
  noun: string
  /** The aria-label of the secret itself, if any. */
  secretLabel?: string
  testIdPrefix: string
  onDismiss: () => void
}) {
  const id = useId()
  const [copied, setCopied] = useState(false)
  const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined

  const copy = async () => {
    if (!clipboard) return
    try {
      await clipboard.writeText(secret)
      setCopied(true)
    } catch {
      toast.error(`The ${noun} could not be copied. Select it and copy it by hand.`)
    }
  }

  return (
    <div className={styles.secretPanel} role="region" aria-labelledby={`${id}-title`} data-testid={`${testIdPrefix}-secret-panel`}>
      <p id={`${id}-title`} className={styles.secretTitle}>
        {title}
      </p>
      <p className={styles.secretWarning}>Copy this {noun} now: it will not be shown again.</p>
      <code className={styles.secret} aria-label={secretLabel} data-testid={`${testIdPrefix}-secret`}>
        {secret}
      </code>
      <div className={styles.row}>
        {clipboard && (
          <button
            type="button"
            className="btn btn--primary btn--small"
            onClick={() => void copy()}
            data-testid={`${testIdPrefix}-copy`}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        )}
        <button type="button" className="btn btn--ghost btn--small" onClick={onDismiss} data-testid={`${testIdPrefix}-dismiss`}>
          Done
        </button>
      </div>
    </div>
  )
}
