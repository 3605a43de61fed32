import { useId, useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { Spinner } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import type { ApiKey, CreatedApiKey } from '@/types/api'
import { useCreateApiKey } from '../api/createApiKey'
import { useApiKeys } from '../api/getApiKeys'
import { useRevokeApiKey } from '../api/revokeApiKey'
import { formatDate } from '../dates'
import styles from './ApiKeysSection.module.css'
import { ConfirmAction } from './ConfirmAction'
import { QueryList } from './QueryList'
import { SecretOnce } from './SecretOnce'

// The server's limit (NewApiKeyBody.name).
const NAME_MAX = 64

function KeyRow({ apiKey, userEmail }: { apiKey: ApiKey; userEmail: string }) {
  const revoke = useRevokeApiKey(userEmail)

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
      <ConfirmAction
        action="Revoke"
        question="Revoke this key? Requests with it will fail."
        confirm="Yes, revoke"
        pendingLabel="Revoking"
        groupLabel={`Confirm revoking ${apiKey.name}`}
        pending={revoke.isPending}
        testId="api-key-revoke"
        onConfirm={async () => {
          await revoke.mutateAsync(apiKey.id)
          toast.success(`The key “${apiKey.name}” has been revoked.`)
        }}
      />
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
      {created && (
        <SecretOnce
          title={<>New key “{created.name}”</>}
          secret={created.secret}
          noun="key"
          testIdPrefix="api-key"
          onDismiss={() => setCreated(null)}
        />
      )}
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
      <QueryList
        query={keys}
        loadingLabel="Loading your API keys…"
        errorTitle="Your API keys could not be loaded."
        emptyText="You have no API keys yet."
        emptyTestId="api-keys-empty"
      >
        {(items) => (
          <ul className={styles.list} data-testid="api-keys-list">
            {items.map((key) => (
              <KeyRow key={key.id} apiKey={key} userEmail={userEmail} />
            ))}
          </ul>
        )}
      </QueryList>
    </section>
  )
}
