import { IconCoins, IconLogin } from '@/components/ui/icons'
import { useAuth } from '@/hooks/useAuth'
import { CreditHistory } from './CreditHistory'
import { PaymentHistory } from './PaymentHistory'
import { SubscriptionPanel } from './SubscriptionPanel'
import styles from '../billing.module.css'

function GuestPanel() {
  const { openLoginPopup } = useAuth()
  return (
    <div className="empty-state" data-testid="billing-guest">
      <IconCoins size={32} />
      <p className="empty-state__title">Log in to see your billing</p>
      <p className={`muted ${styles.billingGuestText}`}>
        Your plan, your payments with their invoices, and every credit added or spent are kept with your account.
      </p>
      <button type="button" className="btn btn--primary" onClick={() => openLoginPopup()} data-testid="billing-login">
        <IconLogin size={18} /> Login
      </button>
    </div>
  )
}

/** /billing-info: plan and status, payments with invoices, and the credit history. */
export function BillingPage() {
  const { user, isAuthenticated } = useAuth()
  const userEmail = isAuthenticated ? user?.userEmail : undefined
  return (
    <div className="page">
      <header className="page-header">
        <h1>Billing</h1>
        <p className="page-header__sub">Your plan, payments and invoices, and where your credits went.</p>
      </header>
      {userEmail ? (
        <div className={styles.billingGrid}>
          <SubscriptionPanel userEmail={userEmail} />
          <PaymentHistory userEmail={userEmail} />
          <CreditHistory userEmail={userEmail} />
        </div>
      ) : (
        <GuestPanel />
      )}
    </div>
  )
}
