import { useAtomValue } from 'jotai'
import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { IconClose } from '@/components/ui/icons'
import { useAuth } from '@/hooks/useAuth'
import { AUTH_SCREEN_PATHS } from '../paths'
import { loginModalVisibleAtom } from '@/stores/auth'
import { AuthHeading, type AuthView } from './AuthViews'
import { ForgotPasswordFlow } from './ForgotPasswordFlow'
import { LoginForm } from './LoginForm'
import { SignupFlow } from './SignupFlow'

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])'

function ModalDialog({ onClose }: { onClose: () => void }) {
  const titleId = useId()
  const panelRef = useRef<HTMLDivElement>(null)
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const [view, setView] = useState<AuthView>('login')
  const onPricing = pathname === '/subscription'

  // Escape closes; Tab stays inside the dialog; focus returns where it was.
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    const panel = panelRef.current
    if (panel && !panel.contains(document.activeElement)) {
      panel.querySelector<HTMLElement>('input:not([type="checkbox"])')?.focus()
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault()
        onClose()
        return
      }
      if (e.key !== 'Tab' || !panel) return
      const items = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE))
      const first = items[0]
      const last = items[items.length - 1]
      if (!first || !last) return
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault()
        last.focus()
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault()
        first.focus()
      }
    }
    document.addEventListener('keydown', onKey)
    const { overflow } = document.body.style
    document.body.style.overflow = 'hidden'
    return () => {
      document.removeEventListener('keydown', onKey)
      document.body.style.overflow = overflow
      previous?.focus?.()
    }
  }, [onClose])

  const toLogin = () => setView('login')

  return (
    <div className="modal" data-testid="login-modal" data-view={view}>
      <div className="modal__backdrop" onClick={onClose} aria-hidden="true" />
      <div className="modal__panel" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={panelRef}>
        <button type="button" className="icon-btn modal__close" aria-label="Close" onClick={onClose} data-testid="login-modal-close">
          <IconClose />
        </button>
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
      </div>
    </div>
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
