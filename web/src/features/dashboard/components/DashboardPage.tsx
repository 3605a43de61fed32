import { useId, useMemo } from 'react'
import { Link } from 'react-router'
import { BalanceCard } from '@/components/BalanceCard'
import { LoadError } from '@/components/ui/LoadError'
import { Alert } from '@/components/ui/Alert'
import { IconArrowRight, IconImages, IconTag } from '@/components/ui/icons'
import { LoadingBlock } from '@/components/ui/Spinner'
import { LoginRequiredPage } from '@/components/LoginRequiredPage'
import { useAuth } from '@/hooks/useAuth'
import { errorMessage } from '@/lib/api'
import { formatCredits, pluralize } from '@/lib/format'
import { formatMoney } from '@/lib/money'
import { useSubscription } from '@/api/subscription'
import type { Generation } from '@/types/api'
import { useCreditUsage } from '../api/getCreditUsage'
import { useLatestGenerations } from '../api/getGenerations'
import { UsageChart } from '@/components/UsageChart'
import { fillDays, lastDays } from '@/lib/usageDays'
import { countThisMonth, parseServerTime } from '../usage'
import styles from '../dashboard.module.css'

const USAGE_DAYS = 30
const LATEST_SHOWN = 8

const KIND_LABELS: Record<Generation['service'], string> = {
  bodySwap: 'Model swap',
  burstreplace: 'Background',
}

function MonthCard({ userEmail }: { userEmail: string }) {
  const id = useId()
  const generations = useLatestGenerations(userEmail)
  const month = useMemo(() => {
    if (!generations.data) return null
    const { items, total } = generations.data
    return countThisMonth(
      items.map((g) => g.createdAt),
      total,
    )
  }, [generations.data])
  const monthName = new Date().toLocaleDateString('en-US', { month: 'long' })
  return (
    <section className={`card ${styles.dashboardCard}`} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={`card__title ${styles.dashboardCardTitle}`}>
        <IconImages /> Generations this month
      </h2>
      {month ? (
        <>
          <p className={styles.dashboardBig} data-testid="dashboard-month-count">
            {month.count}
            {month.complete ? '' : '+'}
          </p>
          <p className={`muted ${styles.dashboardNote}`}>Since 1 {monthName}, all services.</p>
        </>
      ) : generations.isError ? (
        <p className="field-error">{errorMessage(generations.error)}</p>
      ) : (
        <LoadingBlock label="Counting…" />
      )}
    </section>
  )
}

/** "15 Jan 2026" for the server's ISO times (UTC). */
function day(iso: string): string {
  const ms = Date.parse(iso)
  return Number.isNaN(ms)
    ? '–'
    : new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
}

export function PlanCard({ userEmail }: { userEmail: string }) {
  const id = useId()
  const { data: subscription, isPending, isError } = useSubscription(userEmail)
  const live = subscription && subscription.status !== 'canceled' ? subscription : null
  return (
    <section className={`card ${styles.dashboardCard}`} aria-labelledby={`${id}-title`} data-testid="dashboard-plan">
      <h2 id={`${id}-title`} className={`card__title ${styles.dashboardCardTitle}`}>
        <IconTag /> Plan
      </h2>
      {isPending ? (
        <LoadingBlock />
      ) : live ? (
        <>
          <p className={styles.dashboardPlan} data-testid="dashboard-plan-name">
            {live.planName}
          </p>
          <p className={`muted ${styles.dashboardNote}`}>
            {formatCredits(live.credits)} credits a month · {formatMoney(live.amount, live.currency)}
          </p>
          {live.status === 'past_due' ? (
            <p className={`${styles.dashboardNote} ${styles.dashboardNoteWarning}`} data-testid="dashboard-plan-status">
              Payment due: update your card to keep your plan.
            </p>
          ) : (
            <p className={`muted ${styles.dashboardNote}`} data-testid="dashboard-plan-status">
              {live.cancelAtPeriodEnd ? 'Ends' : 'Renews'} on {day(live.currentPeriodEnd)}
              {live.pendingPlanName && !live.cancelAtPeriodEnd ? `, then ${live.pendingPlanName}` : ''}
            </p>
          )}
          <Link to="/billing-info" className={`btn btn--secondary btn--small ${styles.dashboardPlanLink}`} data-testid="dashboard-billing">
            Manage billing
          </Link>
        </>
      ) : (
        <>
          <p className={styles.dashboardPlan} data-testid="dashboard-plan-name">
            Free plan
          </p>
          <p className={`muted ${styles.dashboardNote}`}>
            {isError
              ? 'Your plan could not be loaded right now.'
              : 'You generate with the credits of your account. A monthly plan adds credits every month.'}
          </p>
          <Link to="/subscription" className={`btn btn--secondary btn--small ${styles.dashboardPlanLink}`} data-testid="dashboard-pricing">
            See pricing
          </Link>
        </>
      )}
    </section>
  )
}

function UsageCard({ userEmail }: { userEmail: string }) {
  const id = useId()
  // The window is fixed when the page mounts (UTC days, as the ledger counts them).
  const range = useMemo(() => lastDays(USAGE_DAYS), [])
  const usage = useCreditUsage(userEmail, range)
  const days = useMemo(
    () => (usage.data ? fillDays(usage.data.days, range.fromDate, range.toDate) : []),
    [usage.data, range],
  )
  const spent = days.reduce((sum, d) => sum + d.spent, 0)
  const refunded = days.reduce((sum, d) => sum + d.refunded, 0)

  let body
  if (usage.isPending) body = <LoadingBlock label="Loading your credit usage…" />
  else if (usage.isError)
    body = (
      <LoadError
        title="Your credit usage could not be loaded."
        error={usage.error}
        onRetry={() => void usage.refetch()}
        retryLabel="Try again"
      />
    )
  else if (spent === 0 && refunded === 0)
    body = (
      <div className={`empty-state ${styles.dashboardEmpty}`} data-testid="dashboard-usage-empty">
        <p className="empty-state__title">No credits spent in the last {USAGE_DAYS} days.</p>
        <p>Each generation you make shows up here the day it runs.</p>
      </div>
    )
  else body = <UsageChart days={days} testId="dashboard-usage-chart" />

  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="dashboard-usage">
      <div className={styles.dashboardUsageHead}>
        <h2 id={`${id}-title`} className="card__title">
          Credits spent per day, last {USAGE_DAYS} days
        </h2>
        {usage.data && (spent > 0 || refunded > 0) && (
          <p className="muted" data-testid="dashboard-usage-total">
            {pluralize(spent, 'credit')} spent
            {refunded > 0 ? `, ${formatCredits(refunded)} refunded` : ''}
          </p>
        )}
      </div>
      {body}
    </section>
  )
}

function generationThumb(g: Generation): string | null {
  for (const image of g.tasks) {
    const out = image.edited?.thumbnailUrl ?? image.outputs[0]?.thumbnailUrl
    if (out) return out
  }
  return g.tasks[0]?.inputThumbnailUrl ?? null
}

function LatestCard({ userEmail }: { userEmail: string }) {
  const id = useId()
  const generations = useLatestGenerations(userEmail)
  const items = generations.data?.items.slice(0, LATEST_SHOWN) ?? []

  let body
  if (generations.isPending) body = <LoadingBlock label="Loading your latest generations…" />
  else if (generations.isError && !generations.data)
    body = (
      <Alert tone="error" title="Your generations could not be loaded.">
        {errorMessage(generations.error)}
      </Alert>
    )
  else if (items.length === 0)
    body = (
      <div className={`empty-state ${styles.dashboardEmpty}`} data-testid="dashboard-latest-empty">
        <p className="empty-state__title">You have not generated any images yet.</p>
        <Link to="/upload-images" className="btn btn--primary btn--small">
          Create New Image
        </Link>
      </div>
    )
  else
    body = (
      <ul className={styles.latest} data-testid="dashboard-latest">
        {items.map((g) => {
          const thumb = generationThumb(g)
          const when = parseServerTime(g.createdAt)
          const images = g.tasks.length
          return (
            <li key={g.serviceId} className={styles.latestItem} data-testid="dashboard-latest-item">
              <div className={styles.latestMedia}>
                {thumb ? (
                  <img src={thumb} alt={`${KIND_LABELS[g.service]} from ${when.toLocaleDateString()}`} loading="lazy" />
                ) : (
                  <span className={styles.latestPlaceholder} aria-hidden="true">
                    <IconImages />
                  </span>
                )}
                <span className={`status-pill status-pill--${g.status} ${styles.latestStatus}`}>{g.status}</span>
              </div>
              <div className={styles.latestText}>
                <span className={styles.latestTitle}>{KIND_LABELS[g.service]}</span>
                <span className={`muted ${styles.latestSub}`}>
                  <time dateTime={when.toISOString()}>
                    {when.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}
                  </time>{' '}
                  · {pluralize(images, 'image')}
                </span>
              </div>
            </li>
          )
        })}
      </ul>
    )

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <div className={styles.dashboardUsageHead}>
        <h2 id={`${id}-title`} className="card__title">
          Latest generations
        </h2>
        <Link to="/my-images" className={`link-small ${styles.dashboardAll}`} data-testid="dashboard-my-images">
          See all in My Images <IconArrowRight size={14} />
        </Link>
      </div>
      {body}
    </section>
  )
}

/** /dashboard: balance, plan, this month's generations, credit usage and the latest images. */
export function DashboardPage() {
  const { user } = useAuth()

  if (!user) {
    return (
      <LoginRequiredPage heading="Dashboard" title="Log in to see your dashboard." testId="dashboard-login-required">
        <p>Your balance, the credits you spent day by day and your latest images, in one place.</p>
      </LoginRequiredPage>
    )
  }

  return (
    <div className={`page ${styles.dashboard}`}>
      <header className="page-header page-header--row">
        <div>
          <h1>Dashboard</h1>
          <p className="page-header__sub">Welcome back{user.userName ? `, ${user.userName}` : ''}.</p>
        </div>
        <Link to="/upload-images" className="btn btn--primary">
          Create New Image
        </Link>
      </header>
      <div className={styles.dashboardStats}>
        <BalanceCard
          title="Balance"
          testId="dashboard-balance"
          valueTestId="dashboard-credit"
          className={styles.dashboardCard}
          withNote
        />
        <MonthCard userEmail={user.userEmail} />
        <PlanCard userEmail={user.userEmail} />
      </div>
      <UsageCard userEmail={user.userEmail} />
      <LatestCard userEmail={user.userEmail} />
    </div>
  )
}
