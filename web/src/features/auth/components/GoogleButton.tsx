import { GoogleOAuthProvider, useGoogleLogin } from '@react-oauth/google'
import { useId } from 'react'
import { GOOGLE_CLIENT_ID, GOOGLE_SCOPE } from '@/config'
import { Spinner } from '@/components/ui/Spinner'
import { getDistributorId } from '@/lib/identity'
import { toast } from '@/lib/toast'
import { MSG_TRY_LATER } from '@/lib/validation'
import { useExternalLogin } from '../api/externalLogin'
import { authErrorMessage } from '../errors'
import { completeLogin } from '../session'
import styles from '../auth.module.css'

interface GoogleButtonProps {
  rememberMe: boolean
  onLoggedIn: () => void
}

function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path fill="#EA4335" d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.2l7.9 6.2C12.5 13.6 17.8 9.5 24 9.5z" />
      <path fill="#4285F4" d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.4 5.7c4.3-4 6.9-9.9 6.9-17.1z" />
      <path fill="#FBBC05" d="M10.6 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.2C1 16.6 0 20.2 0 24s1 7.4 2.7 10.8l7.9-6.2z" />
      <path fill="#34A853" d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.4-5.7c-2.1 1.4-4.8 2.3-8.5 2.3-6.2 0-11.5-4.1-13.4-9.8l-7.9 6.2C6.6 42.6 14.6 48 24 48z" />
    </svg>
  )
}

function ConfiguredGoogleButton({ rememberMe, onLoggedIn }: GoogleButtonProps) {
  const externalLogin = useExternalLogin()
  const busy = externalLogin.isPending
  const start = useGoogleLogin({
    flow: 'implicit',
    scope: GOOGLE_SCOPE,
    onSuccess: async ({ access_token: accessToken }) => {
      try {
        const result = await externalLogin.mutateAsync({ distributorId: getDistributorId(), accessToken, rememberMe })
        completeLogin(result, rememberMe)
        onLoggedIn()
      } catch (err) {
        toast.error(authErrorMessage(err))
      }
    },
    onError: () => toast.error(MSG_TRY_LATER),
    // The user closed the popup, or it was blocked: nothing to report.
    onNonOAuthError: (e) => console.info('Google sign-in ended:', e.type),
  })
  return (
    <button
      type="button"
      className={`btn btn--secondary btn--block ${styles.googleBtn}`}
      onClick={() => start()}
      disabled={busy}
      data-testid="google-login"
    >
      {busy ? <Spinner label="Signing in with Google" /> : <GoogleMark />}
      Continue with Google
    </button>
  )
}

export const GOOGLE_UNAVAILABLE = 'Google sign-in is not available on this site. Use your email instead.'

/**
 * "Continue with Google" (implicit flow). Without a client id it is disabled and says why
 * in a line under it (a disabled button's tooltip never shows on touch screens, and many
 * browsers do not show it on hover either).
 */
export function GoogleButton(props: GoogleButtonProps) {
  const noteId = useId()
  if (!GOOGLE_CLIENT_ID) {
    return (
      <div className={styles.googleUnavailable}>
        <button
          type="button"
          className={`btn btn--secondary btn--block ${styles.googleBtn}`}
          disabled
          aria-describedby={noteId}
          data-testid="google-login"
        >
          <GoogleMark />
          Continue with Google
        </button>
        <p id={noteId} className="muted" data-testid="google-unavailable">
          {GOOGLE_UNAVAILABLE}
        </p>
      </div>
    )
  }
  return (
    <GoogleOAuthProvider clientId={GOOGLE_CLIENT_ID}>
      <ConfiguredGoogleButton {...props} />
    </GoogleOAuthProvider>
  )
}
