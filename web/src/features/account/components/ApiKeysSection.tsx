import { useId, useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { Alert } from '@/components/ui/Alert'
import { LoadingBlock, Spinner } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import type { ApiKey, CreatedApiKey } from '@/types/api'
import { useCreateApiKey } from '../api/createApiKey'
import { useApiKeys } from '../api/getApiKeys'
import { useRevokeApiKey } from '../api/revokeApiKey'
import styles from './ApiKeysSection.module.css'

// The server's limit (NewApiKeyBody.name).
const NAME_MAX = 64

function formatDate(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' })
}

/** The full secret of a key just created, shown once, with a Copy button. */
function SecretPanel({ created, onDismiss }: { created: CreatedApiKey; onDismiss: () => void }) {
  const id = useId()
  const [copied, setCopied] = useState(false)
  const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined

  const copy = async () => {
    if (!clipboard) return
    try {
      await clipboard.writeText(created.secret)
      setCopied(true)
    } catch {
      toast.error('The key could not be copied. Select it and copy it by hand.')
    }
  }

  return (
    <div className={styles.secretPanel} role="region" aria-labelledby={`${id}-title`} data-testid="api-key-secret-panel">
      <p id={`${id}-title`} className={styles.secretTitle}>
        New key “{created.name}”
      </p>
      <p className={styles.secretWarning}>Copy this key now: it will not be shown again.</p>
      <code className={styles.secret} data-testid="api-key-secret">
        {created.secret}
      </code>
      <div className={styles.row}>
        {clipboard && (
          <button type="button" className="btn btn--primary btn--small" onClick={() => void copy()} data-testid="api-key-copy">
            {copied ? 'Copied' : 'Copy'}
          </button>
        )}
        <button type="button" className="btn btn--ghost btn--small" onClick={onDismiss} data-testid="api-key-dismiss">
          Done
        </button>
      </div>
    </div>
  )
}

function KeyRow({ apiKey, userEmail }: { apiKey: ApiKey; userEmail: string }) {
  const [confirming, setConfirming] = useState(false)
  const revoke = useRevokeApiKey(userEmail)

  const doRevoke = async () => {
    try {
      await revoke.mutateAsync(apiKey.id)
      toast.success(`The key “${apiKey.name}” has been revoked.`)
    } catch (err) {
      toast.error(errorMessage(err))
      setConfirming(false)
    }
  }

  return (
    <li className={styles.key} data-testid="api-key-row">
      <div className={styles.keyInfo}>
        <span className={styles.keyName}>
          {apiKey.name}
          {apiKey.mode === 'test' && <span className={styles.testBadge}>Test</span>}
        </span>
        <code className={styles.keyMask}>
          {apiKey.prefix}…{apiKey.last4}
        </code>
        <span className={styles.keyMeta}>
          Created {formatDate(apiKey.createdAt)} ·{' '}
          {apiKey.lastUsedAt ? `Last used ${formatDate(apiKey.lastUsedAt)}` : 'Never used'}
        </span>
      </div>
      {confirming ? (
        <span className={styles.row} role="group" aria-label={`Confirm revoking ${apiKey.name}`}>
          <span>Revoke this key? Requests with it will fail.</span>
          <button
            type="button"
            className={`btn btn--small ${styles.btnDanger}`}
            onClick={() => void doRevoke()}
            disabled={revoke.isPending}
            data-testid="api-key-revoke-confirm"
          >
            {revoke.isPending && <Spinner label="Revoking" />}
            Yes, revoke
          </button>
          <button
            type="button"
            className="btn btn--ghost btn--small"
            onClick={() => setConfirming(false)}
            disabled={revoke.isPending}
          >
            Keep
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="btn btn--ghost btn--small"
          onClick={() => setConfirming(true)}
          data-testid="api-key-revoke"
        >
          Revoke
        </button>
      )}
    </li>
  )
}

/** User Setting's API keys: the list, revoking one, and creating one (its secret shown once). */
export function ApiKeysSection({ userEmail }: { userEmail: string }) {
  const id = useId()
  const keys = useApiKeys(userEmail)
  const create = useCreateApiKey(userEmail)
  const [name, setName] = useState('')
  // Test keys run the real pipeline for free, their images watermarked "TEST".
  const [testMode, setTestMode] = useState(false)
  const [created, setCreated] = useState<CreatedApiKey | null>(null)
  const trimmed = name.trim()

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!trimmed || create.isPending) return
    try {
      const key = await create.mutateAsync({ name: trimmed, mode: testMode ? 'test' : 'live' })
      setCreated(key)
      setName('')
    } catch (err) {
      toast.error(errorMessage(err))
    }
  }

  return (
    <section className={`card ${styles.section}`} aria-labelledby={`${id}-title`} data-testid="api-keys">
      <h2 id={`${id}-title`} className="card__title">
        API keys
      </h2>
      <p className={styles.docsLink}>
        Keys let your own programs run generations.{' '}
        <Link to="/docs/api" data-testid="api-docs-link">
          API documentation
        </Link>
      </p>
      {created && <SecretPanel created={created} onDismiss={() => setCreated(null)} />}
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <div className={`field ${styles.nameField}`}>
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            className="input"
            type="text"
            autoComplete="off"
            maxLength={NAME_MAX}
            value={name}
            onChange={(event) => setName(event.target.value)}
            data-testid="api-key-name"
          />
        </div>
        <label className={styles.modeChoice}>
          <input
            type="checkbox"
            checked={testMode}
            onChange={(event) => setTestMode(event.target.checked)}
            data-testid="api-key-test-mode"
          />
          Test key (free, images marked “TEST”)
        </label>
        <button
          type="submit"
          className="btn btn--primary"
          disabled={!trimmed || create.isPending}
          data-testid="api-key-create"
        >
          {create.isPending && <Spinner label="Creating" />}
          Create key
        </button>
      </form>
      {keys.isPending ? (
        <LoadingBlock label="Loading your API keys…" />
      ) : keys.error ? (
        <Alert tone="warning" title="Your API keys could not be loaded.">
          {errorMessage(keys.error)}
        </Alert>
      ) : keys.data.length === 0 ? (
        <p className={styles.empty} data-testid="api-keys-empty">
          You have no API keys yet.
        </p>
      ) : (
        <ul className={styles.list} data-testid="api-keys-list">
          {keys.data.map((key) => (
            <KeyRow key={key.id} apiKey={key} userEmail={userEmail} />
          ))}
        </ul>
      )}
    </section>
  )
}
