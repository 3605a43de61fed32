import { useId, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { Dialog } from '@/components/ui/Dialog'
import { AuthHeading, type AuthView } from './AuthViews'
import { ForgotPasswordFlow } from './ForgotPasswordFlow'
import { LoginForm } from './LoginForm'
import { SignupFlow } from './SignupFlow'

/** The login modal's dialog: log in, sign up or reset the password (LoginModal opens it). */
export function LoginDialog({ onClose }: { onClose: () => void }) {
  const titleId = useId()
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const [view, setView] = useState<AuthView>('login')
  const onPricing = pathname === '/subscription'

  const toLogin = () => setView('login')

  return (
    <Dialog
      labelledBy={titleId}
      onClose={onClose}
      initialFocus='input:not([type="checkbox"])'
      testId="login-modal"
      closeTestId="login-modal-close"
      data={{ 'data-view': view }}
    >
      <AuthHeading view={view} titleId={titleId} />
      {view === 'login' && (
        <LoginForm
          key="login"
          // Logging in closes the modal through the auth state (LOGIN).
          onLoggedIn={() => undefined}
          onCreateAccount={() => {
            if (onPricing) {
              onClose()
              navigate('/signup')
            } else {
              setView('signup')
            }
          }}
          onForgotPassword={onPricing ? undefined : () => setView('forgot')}
          autoFocus
        />
      )}
      {view === 'signup' && <SignupFlow onLoggedIn={() => undefined} onLogin={toLogin} />}
      {view === 'forgot' && <ForgotPasswordFlow onDone={toLogin} onLogin={toLogin} />}
    </Dialog>
  )
}
