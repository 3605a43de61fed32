import { useId, useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { LoadingBlock } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import { useAdminGenerations, type GenerationLookup as Lookup } from '../api/findGenerations'
import { parseLookup } from '../lookup'
import { GenerationCard } from './GenerationCard'
import styles from '../admin-showcase.module.css'

/** Find generations by service id or by the owner's email, to attach retouched images. */
export function GenerationLookup() {
  const [text, setText] = useState('')
  const [invalid, setInvalid] = useState<string | null>(null)
  const [lookup, setLookup] = useState<Lookup | null>(null)
  const found = useAdminGenerations(lookup)
  const inputId = useId()
  const errorId = useId()

  const submit = (event: React.FormEvent) => {
    event.preventDefault()
    const parsed = parseLookup(text)
    if (!parsed.ok) {
      setInvalid(parsed.message)
      return
    }
    setInvalid(null)
    setLookup(parsed.lookup)
    // Looking up the same thing again asks the server again (fresh links, new images).
    if (JSON.stringify(parsed.lookup) === JSON.stringify(lookup)) void found.refetch()
  }

  const what = lookup?.email ? `the user ${lookup.email}` : `the service id ${lookup?.serviceId ?? ''}`

  return (
    <section className="section" aria-labelledby="admin-lookup-title">
      <h2 id="admin-lookup-title" className="section__title">
        Attach an edited image
      </h2>
      <p className={`muted ${styles.adminSectionSub}`}>
        Find an output by its service id or its owner's email, then attach the retouched version. The owner sees it
        marked "Edited" and gets an email.
      </p>
      <form className={styles.adminLookup} onSubmit={submit} noValidate role="search">
        <label htmlFor={inputId} className="visually-hidden">
          Service id or user email
        </label>
        <input
          id={inputId}
          className={`input${invalid ? ' input--invalid' : ''}`}
          value={text}
          onChange={(e) => {
            setText(e.target.value)
            setInvalid(null)
          }}
          placeholder="Service id or user email"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={Boolean(invalid)}
          aria-describedby={invalid ? errorId : undefined}
          data-testid="lookup-input"
        />
        <button type="submit" className="btn btn--primary" disabled={found.isFetching} data-testid="lookup-submit">
          Find
        </button>
      </form>
      {invalid && (
        <p id={errorId} className="field-error" data-testid="lookup-error">
          {invalid}
        </p>
      )}

      {lookup &&
        (found.isPending ? (
          <LoadingBlock label="Looking up…" />
        ) : found.isError ? (
          <Alert tone="error" title="The lookup failed" testId="lookup-failed">
            {errorMessage(found.error)}
          </Alert>
        ) : found.data.items.length === 0 ? (
          <div className="empty-state" data-testid="lookup-empty">
            <p className="empty-state__title">No generations found</p>
            <p>Nothing matches {what}.</p>
          </div>
        ) : (
          <div className={styles.adminGenerations} data-testid="lookup-results">
            {found.data.items.map((item) => (
              <GenerationCard key={item.generation.serviceId} found={item} />
            ))}
          </div>
        ))}
    </section>
  )
}
