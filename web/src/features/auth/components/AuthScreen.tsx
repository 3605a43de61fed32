import { useAtomValue } from 'jotai'
import { useId, useState } from 'react'
import { Link, Navigate, useLocation, useNavigate } from 'react-router'
import { useTakePendingPlan } from '@/hooks/usePendingPlan'
import { isAuthenticatedAtom } from '@/stores/auth'
import { AuthHeading, type AuthView } from './AuthViews'
import { ForgotPasswordFlow } from './ForgotPasswordFlow'
import { LoginForm } from './LoginForm'
import { SignupFlow } from './SignupFlow'
import styles from '../auth.module.css'
import { BrandLink } from '@/components/BrandLink'

const VIEW_BY_PATH: Record<string, AuthView> = {
  '/login': 'login',
  '/signup': 'signup',
  '/forgot-password': 'forgot',
}

/** /login, /signup and /forgot-password: one screen, without the app shell (spec §2). */
export function AuthScreen() {
  const { pathname } = useLocation()
  const navigate = useNavigate()
  const isAuthenticated = useAtomValue(isAuthenticatedAtom)
  const titleId = useId()
  const view = VIEW_BY_PATH[pathname] ?? 'login'
  const takePendingPlan = useTakePendingPlan()
  const [next, setNext] = useState<string | null>(null)

  // Leaving once logged in: home, or, when Buy Now on pricing sent a guest here (the modal's
  // "Create an account" link), on to the plan they chose, as a login in the modal does
  // (spec §4). One <Navigate> does it, so no second navigation races it.
  if (isAuthenticated) return <Navigate to={next ?? '/'} replace />

  const loggedIn = () => setNext(takePendingPlan())
  const toLogin = () => navigate('/login')

  return (
    <div className={styles.authScreen} data-testid="auth-screen" data-view={view}>
      <main className={styles.authCard} aria-labelledby={titleId}>
        <BrandLink />
        <AuthHeading view={view} titleId={titleId} />
        {view === 'login' && (
          <LoginForm
            key={pathname}
            onLoggedIn={loggedIn}
            onCreateAccount={() => navigate('/signup')}
            onForgotPassword={() => navigate('/forgot-password')}
            autoFocus
          />
        )}
        {view === 'signup' && <SignupFlow key={pathname} onLoggedIn={loggedIn} onLogin={toLogin} />}
        {view === 'forgot' && <ForgotPasswordFlow key={pathname} onDone={toLogin} onLogin={toLogin} />}
        <Link to="/upload-images" className="btn btn--ghost btn--block" data-testid="continue-as-guest">
          Continue as guest
        </Link>
      </main>
    </div>
  )
}
