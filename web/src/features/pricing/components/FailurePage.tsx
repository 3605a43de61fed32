import { Link, useSearchParams } from 'react-router'
import { IconAlert } from '@/components/ui/icons'
import { useAuth } from '@/hooks/useAuth'
import { useOrder } from '../api/getOrder'
import { planDetailsUrl, type Currency } from '../pricing'
import styles from '../pricing.module.css'

export const DEFAULT_FAILURE_REASON = 'The payment was not completed.'

/**
 * /failure?orderId=…&reason=… (the checkout's way back when a payment did not go through):
 * why, and Try again (the same plan's /plan-details, or the plans).
 */
export function FailurePage() {
  const [params] = useSearchParams()
  const orderId = params.get('orderId')
  const { isAuthenticated } = useAuth()
  const order = useOrder(isAuthenticated ? orderId : null)
  const data = order.data
  const reason = params.get('reason')?.trim() || data?.reason || DEFAULT_FAILURE_REASON
  const retry = data
    ? planDetailsUrl({
        rate: data.amount,
        piid: data.plan._id,
        rcid: data.plan.rateCode,
        plan: data.plan.name,
        currency: data.currency as Currency,
        credits: data.credits,
        ...(data.redirectby ? { redirectby: data.redirectby } : {}),
      })
    : '/subscription'

  return (
    <div className="page">
      <section className={`card ${styles.outcomeCard}`} data-testid="payment-outcome">
        <span className={`${styles.outcomeIcon} ${styles.outcomeIconFailure}`} aria-hidden="true">
          <IconAlert />
        </span>
        <h1 className={styles.outcomeTitle} data-testid="failure-title">
          {data?.status === 'canceled' ? 'Payment canceled' : data?.status === 'expired' ? 'Checkout expired' : 'Payment failed'}
        </h1>
        <p className={styles.outcomeLead} role="alert" data-testid="failure-reason">
          {reason}
        </p>
        {data?.status !== 'paid' && <p className="muted">No money was taken and your credits are unchanged.</p>}
        {data?.status === 'paid' && (
          <p>
            This order has been paid after all. <Link to={`/success?orderId=${encodeURIComponent(data.orderId)}`}>See it</Link>
          </p>
        )}
        <div className={styles.outcomeActions}>
          <Link to={retry} className="btn btn--primary" data-testid="failure-retry">
            Try again
          </Link>
          <Link to="/subscription" className="btn btn--secondary">
            See all plans
          </Link>
          <Link to="/contact" className="btn btn--ghost">
            Contact us
          </Link>
        </div>
      </section>
    </div>
  )
}
