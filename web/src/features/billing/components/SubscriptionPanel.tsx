import { useId, useState } from 'react'
import { Link } from 'react-router'
import { LoadError } from '@/components/ui/LoadError'
import { Alert } from '@/components/ui/Alert'
import { IconCalendar, IconTag } from '@/components/ui/icons'
import { LoadingBlock } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import { useSubscription, type SubscriptionView } from '@/api/subscription'
import { toast } from '@/lib/toast'
import { useCancelSubscription } from '../api/cancelSubscription'
import { useResumeSubscription } from '../api/resumeSubscription'
import { formatDay, formatMoney } from '../money'
import styles from '../billing.module.css'

const STATUS_LABELS: Record<SubscriptionView['status'], string> = {
  active: 'Active',
  past_due: 'Payment due',
  canceled: 'Canceled',
}

const STATUS_BADGES: Record<SubscriptionView['status'] | 'ending', string | undefined> = {
  active: styles.billingBadgeActive,
  past_due: styles.billingBadgePastDue,
  canceled: styles.billingBadgeCanceled,
  ending: styles.billingBadgeEnding,
}

/** The badge: a pending cancel shows as such while the plan is still active. */
function statusLabel(sub: SubscriptionView): string {
  if (sub.status === 'active' && sub.cancelAtPeriodEnd) return 'Ends at period end'
  return STATUS_LABELS[sub.status] ?? sub.status
}

function PlanSummary({ sub, userEmail }: { sub: SubscriptionView; userEmail: string }) {
  const [confirming, setConfirming] = useState(false)
  const cancel = useCancelSubscription(userEmail)
  const resume = useResumeSubscription(userEmail)
  const busy = cancel.isPending || resume.isPending
  const failure = cancel.error ?? resume.error
  const end = formatDay(sub.currentPeriodEnd)
  const live = sub.status !== 'canceled'

  const doCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: (next) => {
        setConfirming(false)
        toast.success(`Your plan stays active until ${formatDay(next.currentPeriodEnd)}, then ends.`)
      },
    })
  const doResume = () =>
    resume.mutate(undefined, {
      onSuccess: (next) => toast.success(`Your plan renews again on ${formatDay(next.currentPeriodEnd)}.`),
    })

  return (
    <>
      <div className={styles.billingPlanHead}>
        <p className={styles.billingPlanName} data-testid="billing-plan-name">
          {sub.planName}
        </p>
        <span className={`${styles.billingBadge} ${STATUS_BADGES[sub.cancelAtPeriodEnd && live ? 'ending' : sub.status] ?? ''}`} data-testid="billing-plan-status">
          {statusLabel(sub)}
        </span>
      </div>
      <p className={styles.billingPlanPrice}>
        <strong data-testid="billing-plan-price">{formatMoney(sub.amount, sub.currency)}</strong> / month ·{' '}
        {sub.credits} image credits each month
      </p>
      <p className={styles.billingPlanDate} data-testid="billing-plan-renewal">
        <IconCalendar size={16} />{' '}
        {sub.status === 'canceled'
          ? `Ended on ${end}.`
          : sub.cancelAtPeriodEnd
            ? `Ends on ${end}; you will not be charged again.`
            : sub.status === 'past_due'
              ? `The renewal payment failed; we retry it before the plan is canceled. Period ended on ${end}.`
              : `Renews on ${end}.`}
      </p>
      {sub.pendingPlanName && live && !sub.cancelAtPeriodEnd && (
        <p className={`muted ${styles.billingPlanNote}`} data-testid="billing-plan-pending">
          Changes to {sub.pendingPlanName} on {end}.
        </p>
      )}
      {failure && (
        <Alert tone="error" testId="billing-plan-error">
          {errorMessage(failure)}
        </Alert>
      )}
      <div className={styles.billingPlanActions}>
        {sub.status === 'canceled' ? (
          <Link to="/subscription" className="btn btn--primary btn--small" data-testid="billing-plan-choose">
            Choose a plan
          </Link>
        ) : (
          <>
            <Link to="/subscription" className="btn btn--secondary btn--small" data-testid="billing-plan-change">
              Change plan
            </Link>
            {sub.cancelAtPeriodEnd ? (
              <button
                type="button"
                className="btn btn--primary btn--small"
                onClick={doResume}
                disabled={busy}
                data-testid="billing-plan-resume"
              >
                {resume.isPending ? 'Resuming…' : 'Resume plan'}
              </button>
            ) : confirming ? (
              <span className={styles.billingPlanConfirm} role="group" aria-label="Confirm cancel">
                <span>Cancel at the end of this period ({end})?</span>
                <button
                  type="button"
                  className={`btn btn--small ${styles.billingBtnDanger}`}
                  onClick={doCancel}
                  disabled={busy}
                  data-testid="billing-plan-cancel-confirm"
                >
                  {cancel.isPending ? 'Canceling…' : 'Yes, cancel'}
                </button>
                <button type="button" className="btn btn--ghost btn--small" onClick={() => setConfirming(false)} disabled={busy}>
                  Keep plan
                </button>
              </span>
            ) : (
              <button
                type="button"
                className="btn btn--ghost btn--small"
                onClick={() => setConfirming(true)}
                disabled={busy}
                data-testid="billing-plan-cancel"
              >
                Cancel plan
              </button>
            )}
          </>
        )}
      </div>
    </>
  )
}

/** Current plan and status, next renewal, cancel / resume and change plan. */
export function SubscriptionPanel({ userEmail }: { userEmail: string }) {
  const id = useId()
  const subscription = useSubscription(userEmail)
  return (
    <section className={`card ${styles.billingPlan}`} aria-labelledby={`${id}-title`} data-testid="billing-plan">
      <h2 id={`${id}-title`} className={`card__title ${styles.billingCardTitle}`}>
        <IconTag /> Current plan
      </h2>
      {subscription.isPending ? (
        <LoadingBlock label="Loading your plan…" />
      ) : subscription.isError ? (
        <LoadError
          title="Your plan could not be loaded"
          testId="billing-plan-load-error"
          error={subscription.error}
          onRetry={() => void subscription.refetch()}
        />
      ) : subscription.data ? (
        <PlanSummary sub={subscription.data} userEmail={userEmail} />
      ) : (
        <div data-testid="billing-plan-none">
          <p className={styles.billingPlanName}>No subscription</p>
          <p className={`muted ${styles.billingPlanNote}`}>
            You pay as you go with free credits and credit packs. A monthly plan adds image credits every month.
          </p>
          <div className={styles.billingPlanActions}>
            <Link to="/subscription" className="btn btn--primary btn--small" data-testid="billing-plan-choose">
              See plans
            </Link>
          </div>
        </div>
      )}
    </section>
  )
}
