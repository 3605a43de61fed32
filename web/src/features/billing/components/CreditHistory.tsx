import { useId, useMemo, useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { IconCalendar } from '@/components/ui/icons'
import { LoadingBlock } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import { CREDITS_PAGE_SIZE, useCreditHistory } from '../api/getCreditHistory'
import { formatDelta, formatMoment, lastUtcDays, pageCount, sumDays } from '../money'
import { Pager } from './Pager'

const RANGES = [
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last 12 months' },
] as const

/** The credit ledger: the range's totals, then every movement, newest first. */
export function CreditHistory({ userEmail }: { userEmail: string }) {
  const id = useId()
  const [days, setDays] = useState<number>(30)
  const [page, setPage] = useState(1)
  const range = useMemo(() => lastUtcDays(days), [days])
  const history = useCreditHistory(userEmail, range, page)
  const data = history.data
  const totals = useMemo(() => (data ? sumDays(data.days) : null), [data])

  return (
    <section className="card billing-section" aria-labelledby={`${id}-title`} data-testid="billing-credits">
      <div className="billing-section__head">
        <h2 id={`${id}-title`} className="card__title billing-card-title">
          <IconCalendar /> Credit history
        </h2>
        <label className="billing-range">
          <span className="visually-hidden">Period</span>
          <select
            className="input"
            value={days}
            onChange={(e) => {
              setDays(Number(e.target.value))
              setPage(1)
            }}
            data-testid="billing-credits-range"
          >
            {RANGES.map((r) => (
              <option key={r.days} value={r.days}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {history.isPending ? (
        <LoadingBlock label="Loading your credit history…" />
      ) : history.isError && !data ? (
        <Alert
          tone="error"
          title="Your credit history could not be loaded"
          testId="billing-credits-error"
          action={
            <button type="button" className="btn btn--secondary btn--small" onClick={() => void history.refetch()}>
              Retry
            </button>
          }
        >
          {errorMessage(history.error)}
        </Alert>
      ) : data && totals ? (
        <>
          <dl className="billing-totals" data-testid="billing-credit-totals">
            <div>
              <dt>Paid credits added</dt>
              <dd data-testid="billing-total-paid">{totals.grantedPaid}</dd>
            </div>
            <div>
              <dt>Free credits added</dt>
              <dd data-testid="billing-total-free">{totals.grantedFree}</dd>
            </div>
            <div>
              <dt>Spent on images</dt>
              <dd data-testid="billing-total-spent">{totals.spent}</dd>
            </div>
            <div>
              <dt>Refunded</dt>
              <dd data-testid="billing-total-refunded">{totals.refunded}</dd>
            </div>
          </dl>
          {data.entries.items.length === 0 ? (
            <p className="muted billing-empty" data-testid="billing-credits-empty">
              No credit movements in this period.
            </p>
          ) : (
            <>
              <ul className="billing-ledger" data-testid="billing-credits-list">
                {data.entries.items.map((entry) => (
                  <li key={entry.id} className="billing-ledger__row" data-testid="billing-credit-row">
                    <span className="billing-ledger__what">
                      <span>{entry.description}</span>
                      <span className="muted billing-ledger__when">{formatMoment(entry.createdAt)}</span>
                    </span>
                    <span
                      className={`billing-ledger__delta${entry.delta < 0 ? ' billing-ledger__delta--minus' : ''}`}
                      data-testid="billing-credit-delta"
                    >
                      {formatDelta(entry.delta)}
                      <span className="muted billing-ledger__split">
                        {entry.deltaPaid !== 0 && entry.deltaFree !== 0
                          ? `${formatDelta(entry.deltaFree)} free, ${formatDelta(entry.deltaPaid)} paid`
                          : entry.deltaPaid !== 0
                            ? 'paid'
                            : 'free'}
                      </span>
                    </span>
                  </li>
                ))}
              </ul>
              <Pager
                page={page}
                pages={pageCount(data.entries.total, CREDITS_PAGE_SIZE)}
                onPage={setPage}
                label="Credit history pages"
                testId="billing-credits-page"
              />
            </>
          )}
        </>
      ) : null}
    </section>
  )
}
