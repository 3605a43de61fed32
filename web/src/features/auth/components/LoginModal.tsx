import { useAtomValue } from 'jotai'
import { useCallback, useId, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { Dialog } from '@/components/ui/Dialog'
import { useAuth } from '@/hooks/useAuth'
import { AUTH_SCREEN_PATHS } from '../paths'
import { loginModalVisibleAtom } from '@/stores/auth'
import { AuthHeading, type AuthView } from './AuthViews'
import { ForgotPasswordFlow } from './ForgotPasswordFlow'
import { LoginForm } from './LoginForm'
import { SignupFlow } from './SignupFlow'

function ModalDialog({ onClose }: { onClose: () => void }) {
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

/**
 * The login modal (spec §2): over any page while the popup flag is raised and
 * no user email is known; it closes once one is, or when the user closes it.
 */
export function LoginModal() {
  const visible = useAtomValue(loginModalVisibleAtom)
  const { setOpen } = useAuth()
  const { pathname } = useLocation()
  const close = useCallback(() => setOpen(false), [setOpen])
  if (!visible || AUTH_SCREEN_PATHS.includes(pathname)) return null
  return <ModalDialog onClose={close} />
}
