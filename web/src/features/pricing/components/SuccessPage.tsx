import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Link, Navigate, useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/Alert'
import { IconCheck } from '@/components/ui/icons'
import { Spinner } from '@/components/ui/Spinner'
import { useAuth } from '@/hooks/useAuth'
import { useCredits } from '@/hooks/useCredits'
import { errorMessage } from '@/lib/api'
import { invalidateCredits } from '@/api/credits'
import { formatCredits } from '@/lib/format'
import { useOrder } from '../api/getOrder'
import { formatMoney, safeRedirect } from '../pricing'
import styles from '../pricing.module.css'

/** After this long still pending, say so (the page keeps following the order). */
export const SLOW_AFTER_MS = 30_000

function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="page">
      <section className={`card ${styles.outcomeCard}`} data-testid="payment-outcome">
        {children}
      </section>
    </div>
  )
}

function NewBalance() {
  const { data: credits, isFetching } = useCredits()
  if (!credits) return null
  return (
    <p>
      Your balance is now{' '}
      <strong data-testid="success-balance" data-fetching={isFetching || undefined}>
        {formatCredits(credits.total)} credits
      </strong>
      .
    </p>
  )
}

/**
 * /success?orderId=… (the checkout's way back): follows the order until it is paid and
 * credited, then shows the credits added and the new balance (the sidebar's Credit is
 * refetched), and leads on to `redirectby` or Create New Image. A failed or canceled order
 * goes to /failure.
 */
export function SuccessPage() {
  const [params] = useSearchParams()
  const orderId = params.get('orderId')
  const { isAuthenticated, openLoginPopup } = useAuth()
  const order = useOrder(isAuthenticated ? orderId : null, { follow: true })
  const status = order.data?.status
  const credited = useRef(false)
  const [slow, setSlow] = useState(false)

  useEffect(() => {
    const timer = window.setTimeout(() => setSlow(true), SLOW_AFTER_MS)
    return () => window.clearTimeout(timer)
  }, [])

  // Paid: the balance moved, so the sidebar (and this page) ask for it again, once.
  useEffect(() => {
    if (status !== 'paid' || credited.current) return
    credited.current = true
    void invalidateCredits()
  }, [status])

  if (!orderId) {
    return (
      <Shell>
        <h1 className={styles.outcomeTitle}>No order to show</h1>
        <p className="muted">This page shows a payment after checkout. Choose a plan to buy credits.</p>
        <Link to="/subscription" className="btn btn--primary">
          See plans
        </Link>
      </Shell>
    )
  }

  if (!isAuthenticated) {
    return (
      <Shell>
        <h1 className={styles.outcomeTitle}>Log in to see your order</h1>
        <p className="muted">Your payment is kept with your account.</p>
        <button type="button" className="btn btn--primary" onClick={() => openLoginPopup(false)} data-testid="success-login">
          Login
        </button>
      </Shell>
    )
  }

  if (order.isError && !order.data) {
    return (
      <Shell>
        <h1 className={styles.outcomeTitle}>We could not load your order</h1>
        <Alert tone="error" testId="success-error">
          {errorMessage(order.error)}
        </Alert>
        <button type="button" className="btn btn--secondary" onClick={() => void order.refetch()}>
          Try again
        </button>
      </Shell>
    )
  }

  if (status === 'failed' || status === 'canceled' || status === 'expired') {
    const reason = order.data?.reason ?? ''
    return <Navigate to={`/failure?orderId=${encodeURIComponent(orderId)}&reason=${encodeURIComponent(reason)}`} replace />
  }

  if (status !== 'paid' || !order.data) {
    return (
      <Shell>
        <div className={styles.outcomePending} data-testid="success-pending" aria-live="polite">
          <Spinner label="Confirming your payment" />
          <h1 className={styles.outcomeTitle}>Confirming your payment…</h1>
        </div>
        <p className="muted">
          {slow
            ? 'This is taking longer than usual. You can leave this page: the credits are added as soon as the payment is confirmed.'
            : 'This takes a few seconds. Please keep this page open.'}
        </p>
      </Shell>
    )
  }

  const paid = order.data
  const next = safeRedirect(paid.redirectby)
  return (
    <Shell>
      <span className={`${styles.outcomeIcon} ${styles.outcomeIconSuccess}`} aria-hidden="true">
        <IconCheck />
      </span>
      <h1 className={styles.outcomeTitle} data-testid="success-title">
        Payment successful
      </h1>
      <p className={styles.outcomeLead} data-testid="success-credits" data-credits={paid.credits}>
        <strong>{formatCredits(paid.credits)} credits</strong> were added to your account.
      </p>
      <dl className={styles.outcomeFacts}>
        <div>
          <dt>Plan</dt>
          <dd>{paid.plan.name}</dd>
        </div>
        <div>
          <dt>Paid</dt>
          <dd>{formatMoney(paid.amount, paid.currency)}</dd>
        </div>
        <div>
          <dt>Order</dt>
          <dd className={styles.outcomeOrder}>{paid.orderId}</dd>
        </div>
      </dl>
      <NewBalance />
      <div className={styles.outcomeActions}>
        {next ? (
          <Link to={next} className="btn btn--primary" data-testid="success-continue">
            Continue
          </Link>
        ) : (
          <Link to="/upload-images" className="btn btn--primary" data-testid="success-continue">
            Create New Image
          </Link>
        )}
        {paid.plan.kind === 'subscription' && (
          <Link to="/billing-info" className="btn btn--secondary">
            Billing
          </Link>
        )}
      </div>
    </Shell>
  )
}
