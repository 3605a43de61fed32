import { Link, useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/Alert'
import { LoadingBlock, Spinner } from '@/components/ui/Spinner'
import { useAuth } from '@/hooks/useAuth'
import { errorMessage } from '@/lib/api'
import { formatCredits } from '@/lib/format'
import { usePricing } from '../api/getPricing'
import { browserLocation } from '../browserLocation'
import { useStartCheckout } from '../api/startCheckout'
import { findChoice, formatMoney, intervalLabel, parsePlanQuery, perImagePrice, type PlanChoice } from '../pricing'
import styles from '../pricing.module.css'

function BackToPricing({ label = 'Back to pricing' }: { label?: string }) {
  return (
    <Link to="/subscription" className="btn btn--secondary" data-testid="back-to-pricing">
      {label}
    </Link>
  )
}

function Unavailable({ title, text }: { title: string; text: string }) {
  return (
    <div className="page">
      <header className="page-header">
        <h1>Plan details</h1>
      </header>
      <div className="empty-state" data-testid="plan-details-unavailable">
        <p className="empty-state__title">{title}</p>
        <p className="muted">{text}</p>
        <BackToPricing label="Choose a plan" />
      </div>
    </div>
  )
}

function Summary({ choice }: { choice: PlanChoice }) {
  const { isAuthenticated, openLoginPopup } = useAuth()
  // The list is the truth (a link may be stale): prices and credits shown come from it.
  const pricing = usePricing(choice.currency)
  const checkout = useStartCheckout()

  if (pricing.isPending) return <LoadingBlock label="Loading the plan…" />
  const found = pricing.data ? findChoice(pricing.data.pricingInfo, choice) : null
  if (!pricing.data) {
    return (
      <Unavailable title="The plan details are not available right now." text="Please try again in a little while." />
    )
  }
  if (!found) {
    return (
      <Unavailable
        title="This plan is not available."
        text="The link names a plan or price we do not sell (any more). Please choose a plan on the pricing page."
      />
    )
  }
  const { plan, rate } = found
  const changed = rate.value !== choice.rate || rate.config.credits !== choice.credits

  const pay = async () => {
    if (checkout.isPending) return
    try {
      const started = await checkout.mutateAsync({
        piid: plan._id,
        rcid: rate.rateCode,
        currency: plan.currency,
        ...(choice.redirectby ? { redirectby: choice.redirectby } : {}),
      })
      browserLocation.assign(started.checkoutUrl)
    } catch {
      /* shown below from checkout.error */
    }
  }

  return (
    <div className="page">
      <header className="page-header">
        <p className="eyebrow">Checkout</p>
        <h1>Plan details</h1>
        <p className="page-header__sub">Check your order, then pay on the secure checkout page.</p>
      </header>
      <section className={`card ${styles.planDetailsCard}`} aria-label="Order summary" data-testid="order-summary">
        <h2 className={styles.planDetailsPlan} data-testid="summary-plan">
          {plan.name}
          <span className="chip">{plan.kind === 'subscription' ? 'Monthly plan' : 'One-time pack'}</span>
        </h2>
        <dl className={styles.planDetailsRows}>
          <div>
            <dt>Price</dt>
            <dd data-testid="summary-price">
              {formatMoney(rate.value, plan.currency)} <span className="muted">{intervalLabel(rate.interval)}</span>
            </dd>
          </div>
          <div>
            <dt>Image credits</dt>
            <dd data-testid="summary-credits">
              {formatCredits(rate.config.credits)}
              {rate.interval === 'month' ? ' every month' : ''}
            </dd>
          </div>
          <div>
            <dt>Per image</dt>
            <dd data-testid="summary-per-image">{perImagePrice(rate.value, rate.config.credits, plan.currency)}</dd>
          </div>
          <div>
            <dt>Currency</dt>
            <dd>{plan.currency}</dd>
          </div>
          <div className={styles.planDetailsTotal}>
            <dt>Total today</dt>
            <dd data-testid="summary-total">{formatMoney(rate.value, plan.currency)}</dd>
          </div>
        </dl>
        {changed && (
          <Alert tone="info" testId="summary-changed">
            The price or credits of this plan changed since the link was made; the order uses the values shown here.
          </Alert>
        )}
        {rate.interval === 'month' && (
          <p className={`muted ${styles.planDetailsNote}`}>Renews every month until you cancel it on the Billing page.</p>
        )}
        {checkout.error && (
          <Alert tone="error" title="Checkout did not start." testId="checkout-error">
            {errorMessage(checkout.error)}
          </Alert>
        )}
        <div className={styles.planDetailsActions}>
          <BackToPricing />
          {isAuthenticated ? (
            <button
              type="button"
              className="btn btn--primary"
              onClick={() => void pay()}
              disabled={checkout.isPending || checkout.isSuccess}
              data-testid="pay-button"
            >
              {(checkout.isPending || checkout.isSuccess) && <Spinner label="Starting checkout" />}
              Pay {formatMoney(rate.value, plan.currency)}
            </button>
          ) : (
            <button
              type="button"
              className="btn btn--primary"
              onClick={() => openLoginPopup(false)}
              aria-haspopup="dialog"
              data-testid="plan-details-login"
            >
              Log in to pay
            </button>
          )}
        </div>
      </section>
    </div>
  )
}

/** /plan-details (spec §2): the order summary of the query's plan, and Pay (checkout). */
export function PlanDetailsPage() {
  const [params] = useSearchParams()
  const parsed = parsePlanQuery(params)
  if (!parsed.ok) {
    return (
      <Unavailable
        title="No plan was chosen."
        text={`The link is missing or has a wrong ${parsed.problems.join(', ')}. Please choose a plan on the pricing page.`}
      />
    )
  }
  return <Summary choice={parsed.choice} />
}
