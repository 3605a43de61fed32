import { useId, useMemo, useState } from 'react'
import { LoadError } from '@/components/ui/LoadError'
import { IconCalendar } from '@/components/ui/icons'
import { LoadingBlock } from '@/components/ui/Spinner'
import { saveBlob } from '@/lib/download'
import { CREDITS_PAGE_SIZE, useCreditHistory } from '../api/getCreditHistory'
import { UsageChart } from '@/components/UsageChart'
import { fillDays, lastDays } from '@/lib/usageDays'
import { formatDelta, formatMoment, pageCount, rangeProblem, sumDays, usageCsv } from '../money'
import { Pager } from './Pager'
import styles from '../billing.module.css'

const RANGES = [
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last 12 months' },
] as const
/** The select's value for a from/to range of the person's own. */
const CUSTOM = 0

/** The credit ledger: the range's totals, then every movement, newest first. */
export function CreditHistory({ userEmail }: { userEmail: string }) {
  const id = useId()
  const [days, setDays] = useState<number>(30)
  const [page, setPage] = useState(1)
  // The dates typed; the custom range asked for is the last valid pair (a half-typed date
  // never reaches the server).
  const [typed, setTyped] = useState(() => lastDays(30))
  const [custom, setCustom] = useState(typed)
  const problem = days === CUSTOM ? rangeProblem(typed.fromDate, typed.toDate) : null
  const range = useMemo(() => (days === CUSTOM ? custom : lastDays(days)), [days, custom])
  const type = (part: 'fromDate' | 'toDate', value: string) => {
    const next = { ...typed, [part]: value }
    setTyped(next)
    if (!rangeProblem(next.fromDate, next.toDate)) {
      setCustom(next)
      setPage(1)
    }
  }
  const history = useCreditHistory(userEmail, range, page)
  const data = history.data
  const totals = useMemo(() => (data ? sumDays(data.days) : null), [data])
  // The chart follows the range shown: every day of it, 0 where nothing moved.
  const chartDays = useMemo(() => (data ? fillDays(data.days, data.fromDate, data.toDate) : []), [data])

  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="billing-credits">
      <div className={styles.billingSectionHead}>
        <h2 id={`${id}-title`} className={`card__title ${styles.billingCardTitle}`}>
          <IconCalendar /> Credit history
        </h2>
        <label className={styles.billingRange}>
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
            <option value={CUSTOM}>Custom dates</option>
          </select>
        </label>
        <button
          type="button"
          className="btn btn--secondary btn--small"
          disabled={!data}
          onClick={() => {
            if (!data) return
            const name = `credit-usage-${data.fromDate}-to-${data.toDate}.csv`
            saveBlob(new Blob([usageCsv(data.days)], { type: 'text/csv;charset=utf-8' }), name)
          }}
          data-testid="billing-credits-csv"
        >
          Export CSV
        </button>
      </div>
      {days === CUSTOM && (
        <div className={styles.billingRange} data-testid="billing-credits-dates">
          <label>
            From{' '}
            <input
              type="date"
              className="input"
              value={typed.fromDate}
              max={typed.toDate || undefined}
              onChange={(e) => type('fromDate', e.target.value)}
              data-testid="billing-credits-from"
            />
          </label>
          <label>
            To{' '}
            <input
              type="date"
              className="input"
              value={typed.toDate}
              min={typed.fromDate || undefined}
              onChange={(e) => type('toDate', e.target.value)}
              data-testid="billing-credits-to"
            />
          </label>
          {problem && (
            <p className="field-error" role="alert" data-testid="billing-credits-range-problem">
              {problem}
            </p>
          )}
        </div>
      )}
      {history.isPending ? (
        <LoadingBlock label="Loading your credit history…" />
      ) : history.isError && !data ? (
        <LoadError
          title="Your credit history could not be loaded"
          testId="billing-credits-error"
          error={history.error}
          onRetry={() => void history.refetch()}
        />
      ) : data && totals ? (
        <>
          <dl className={styles.billingTotals} data-testid="billing-credit-totals">
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
          {totals.spent > 0 || totals.refunded > 0 ? <UsageChart days={chartDays} testId="billing-credits-chart" /> : null}
          {data.entries.items.length === 0 ? (
            <p className={`muted ${styles.billingEmpty}`} data-testid="billing-credits-empty">
              No credit movements in this period.
            </p>
          ) : (
            <>
              <ul className={styles.billingLedger} data-testid="billing-credits-list">
                {data.entries.items.map((entry) => (
                  <li key={entry.id} className={styles.billingLedgerRow} data-testid="billing-credit-row">
                    <span className={styles.billingLedgerWhat}>
                      <span>{entry.description}</span>
                      <span className={`muted ${styles.billingLedgerWhen}`}>{formatMoment(entry.createdAt)}</span>
                    </span>
                    <span
                      className={`${styles.billingLedgerDelta}${entry.delta < 0 ? ` ${styles.billingLedgerDeltaMinus}` : ''}`}
                      data-testid="billing-credit-delta"
                    >
                      {formatDelta(entry.delta)}
                      <span className={`muted ${styles.billingLedgerSplit}`}>
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
