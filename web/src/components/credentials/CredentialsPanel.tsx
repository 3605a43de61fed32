import { useId, useState } from 'react'
import { Link } from 'react-router'
import type { ContentCredentials } from '@/types/api'
import {
  actionText,
  CREDENTIALS_LINE,
  DEVELOPMENT_NOTE,
  formatSignedAt,
  ingredientLine,
  isDevelopmentSigner,
  signerText,
  type CatalogNames,
  type IngredientLine,
} from './credentials'
import styles from './CredentialsPanel.module.css'

interface CredentialsPanelProps {
  /** The image's credentials; null or absent (an image made before signing) shows nothing. */
  credentials: ContentCredentials | null | undefined
  /** Catalog names the page knows (a model's, a background's); ids show otherwise. */
  catalogNames?: CatalogNames
  /** Open from the start (the /verify page, where the details are the answer). */
  defaultOpen?: boolean
  /** The "Check an image" link to /verify (left out on /verify itself). */
  verifyLink?: boolean
  /** Extra classes on the outer element (the place's own layout). */
  className?: string
  testId?: string
}

/** A hash's short form, the whole in its title, and a button that copies the whole. */
function HashValue({ line }: { line: IngredientLine & { hash: string } }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(line.hash)
      setCopied(true)
    } catch {
      // No clipboard (an insecure origin, a refusal): the title still shows the whole hash.
      setCopied(false)
    }
  }
  return (
    <>
      <code className={styles.hash} title={line.hash} data-testid="credentials-hash">
        {line.value}
      </code>{' '}
      <button
        type="button"
        className={styles.copy}
        onClick={() => void copy()}
        aria-label={`Copy the full SHA-256 of the ${line.label.toLowerCase()}`}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </>
  )
}

/**
 * "Content Credentials: AI-generated with MetaModel" with a CR badge, a button that opens what
 * the signed manifest says: what was done, what it was made from, when, who signed it, with
 * which engine, and whether it is a test image.
 */
export function CredentialsPanel({
  credentials,
  catalogNames,
  defaultOpen = false,
  verifyLink = true,
  className,
  testId = 'content-credentials',
}: CredentialsPanelProps) {
  const id = useId()
  const [open, setOpen] = useState(defaultOpen)
  if (!credentials) return null

  const signedAt = formatSignedAt(credentials.signedAt)
  const development = isDevelopmentSigner(credentials)
  const ingredients = credentials.ingredients.map((i) => ingredientLine(i, catalogNames))
  const detailsId = `${id}-details`

  return (
    <div className={className ? `${styles.panel} ${className}` : styles.panel} data-testid={testId}>
      <button
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen((o) => !o)}
        data-testid="credentials-toggle"
      >
        <span className={styles.badge} aria-hidden="true">
          cr
        </span>
        <span className={styles.line}>{CREDENTIALS_LINE}</span>
        {credentials.testMode && <span className={styles.test}>Test image</span>}
        <span className={`${styles.chevron}${open ? ` ${styles.chevronOpen}` : ''}`} aria-hidden="true" />
      </button>

      <div id={detailsId} className={styles.details} hidden={!open} data-testid="credentials-details">
        <dl className={styles.facts}>
          <dt>What was done</dt>
          <dd data-testid="credentials-action">{actionText(credentials)}</dd>

          {ingredients.length > 0 && (
            <>
              <dt>Made from</dt>
              <dd>
                <ul className={styles.ingredients} data-testid="credentials-ingredients">
                  {ingredients.map((line, i) => (
                    <li key={`${line.label}-${i}`}>
                      <span className={styles.ingredientLabel}>{line.label}:</span>{' '}
                      {line.hash ? <HashValue line={{ ...line, hash: line.hash }} /> : line.value}
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          )}

          {signedAt && (
            <>
              <dt>Signed</dt>
              <dd data-testid="credentials-date">
                <time dateTime={credentials.signedAt ?? undefined}>{signedAt}</time>
              </dd>
            </>
          )}

          <dt>Signed by</dt>
          <dd data-testid="credentials-signer">
            {signerText(credentials) || 'Unknown signer'}
            {development && (
              <p className={styles.note} data-testid="credentials-development">
                {DEVELOPMENT_NOTE}
              </p>
            )}
          </dd>

          {credentials.engine && (
            <>
              <dt>Engine</dt>
              <dd data-testid="credentials-engine">{credentials.engine}</dd>
            </>
          )}

          {credentials.testMode && (
            <>
              <dt>Mode</dt>
              <dd data-testid="credentials-test">Test image (made with a test API key)</dd>
            </>
          )}
        </dl>
        {verifyLink && (
          <p className={styles.verify}>
            <Link to="/verify">Check an image</Link> to see whether a file still carries these credentials.
          </p>
        )}
      </div>
    </div>
  )
}
