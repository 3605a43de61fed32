import { Link, useNavigate } from 'react-router'
import { Alert } from '@/components/ui/Alert'
import { useAuth } from '@/hooks/useAuth'
import { guestFreeCreditsWithheld } from '@/lib/identity'

/** Signing up grants these (the server's signup_free_credits; the home page promises them). */
export const SIGNUP_FREE_CREDITS = 10

/**
 * Under the Generate button when the balance may not cover the cost. A guest whose network
 * had used up today's free guest credits is told so and offered the sign-up's free credits
 * (buying is not the next step for them); everyone else is offered more credits.
 */
export function ShortBalance() {
  const { isAuthenticated } = useAuth()
  const navigate = useNavigate()
  if (!isAuthenticated && guestFreeCreditsWithheld()) {
    return (
      <Alert
        tone="warning"
        title="Today's free guest credits are used up on this network"
        action={
          <button type="button" className="btn btn--primary btn--small" onClick={() => void navigate('/signup')} data-testid="short-balance-signup">
            Sign up free
          </button>
        }
      >
        Create an account to get {SIGNUP_FREE_CREDITS} free credits and keep what you have made.
      </Alert>
    )
  }
  return (
    <Alert tone="warning" title="Your balance may not cover this">
      <Link to="/subscription">Get more credits</Link>
    </Alert>
  )
}
