import { useDeferredValue, useId, useMemo, useState } from 'react'
import { Link } from 'react-router'
import { IconArrowRight, IconCalendar, IconMail } from '@/components/ui/icons'
import { errorMessage } from '@/lib/api'
import { useSiteConfig } from '@/api/siteConfig'
import { buildFaq, FAQ_TOPICS, filterFaq, type LimitsState } from '../faq'
import styles from '../support.module.css'

/** /help: a searchable FAQ and the ways to reach us. */
export function HelpPage() {
  const id = useId()
  const config = useSiteConfig()
  const [query, setQuery] = useState('')
  const deferredQuery = useDeferredValue(query)
  const searching = deferredQuery.trim() !== ''

  const faq = useMemo(() => {
    const limits: LimitsState = config.data
      ? { config: config.data }
      : config.error
        ? { error: errorMessage(config.error) }
        : { loading: true }
    return buildFaq(limits)
  }, [config.data, config.error])
  const matches = useMemo(() => filterFaq(faq, deferredQuery), [faq, deferredQuery])

  return (
    <div className="page">
      <header className="page-header">
        <h1>Help &amp; Support</h1>
        <p className="page-header__sub">Answers about credits, photos, timing and your data. Can't find yours? Write to us.</p>
      </header>

      <div className={styles.helpSearch} role="search">
        <label htmlFor={`${id}-q`} className="visually-hidden">
          Search the questions and answers
        </label>
        <input
          id={`${id}-q`}
          className="input"
          type="search"
          placeholder="Search, e.g. refund, formats, delete"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoComplete="off"
          data-testid="help-search"
        />
        <p className="visually-hidden" aria-live="polite">
          {searching ? `${matches.length} ${matches.length === 1 ? 'answer' : 'answers'} found` : ''}
        </p>
      </div>

      {matches.length === 0 ? (
        <div className="empty-state" data-testid="help-no-results">
          <p className="empty-state__title">No answers match “{deferredQuery.trim()}”.</p>
          <p>Try other words, or ask us directly.</p>
          <div className={styles.helpEmptyActions}>
            <button type="button" className="btn btn--secondary" onClick={() => setQuery('')}>
              Clear the search
            </button>
            <Link to="/contact" className="btn btn--primary">
              Contact us
            </Link>
          </div>
        </div>
      ) : (
        FAQ_TOPICS.map((topic) => {
          const entries = matches.filter((e) => e.topic === topic.value)
          if (entries.length === 0) return null
          return (
            <section key={topic.value} className={styles.helpTopic} aria-labelledby={`${id}-${topic.value}`}>
              <h2 id={`${id}-${topic.value}`} className="section__title">
                {topic.label}
              </h2>
              <div className={styles.helpList}>
                {entries.map((entry) => (
                  // Opened while searching, so the matching answer shows; the key resets the
                  // user's own toggling when the search starts or ends.
                  <details
                    key={`${entry.id}-${searching ? 'open' : 'closed'}`}
                    className={styles.helpItem}
                    open={searching}
                    data-testid="help-item"
                  >
                    <summary className={styles.helpQuestion}>{entry.question}</summary>
                    <div className={styles.helpAnswer}>
                      {entry.answer.map((p) => (
                        <p key={p}>{p}</p>
                      ))}
                    </div>
                  </details>
                ))}
              </div>
            </section>
          )
        })
      )}

      <section className={`card ${styles.helpContact}`} aria-labelledby={`${id}-verify`}>
        <div>
          <h2 id={`${id}-verify`} className="card__title">
            Is an image from MetaModel?
          </h2>
          <p className="muted">
            Every image we make carries signed Content Credentials that say it was made with AI. Check a file to see
            whether it still carries ours, which generation made it, and whether it changed since.
          </p>
        </div>
        <div className={styles.helpContactActions}>
          <Link to="/verify" className="btn btn--secondary" data-testid="help-verify">
            Check an image <IconArrowRight size={16} />
          </Link>
        </div>
      </section>

      <section className={`card ${styles.helpContact}`} aria-labelledby={`${id}-contact`}>
        <div>
          <h2 id={`${id}-contact`} className="card__title">
            Still need help?
          </h2>
          <p className="muted">
            Write to us with the contact form and we answer by email. For a walk-through for your team, book an
            appointment.
          </p>
        </div>
        <div className={styles.helpContactActions}>
          <Link to="/contact" className="btn btn--primary" data-testid="help-contact">
            <IconMail /> Contact us <IconArrowRight size={16} />
          </Link>
          <Link to="/contact?topic=appointment" className="btn btn--secondary">
            <IconCalendar /> Book an appointment
          </Link>
        </div>
      </section>
    </div>
  )
}
