import { SIGNUP_FREE_CREDITS } from '@/config'
import styles from '../auth.module.css'

export type AuthView = 'login' | 'signup' | 'forgot'

const TITLES: Record<AuthView, string> = {
  login: 'Login/Sign up',
  signup: 'Create an account',
  forgot: 'Reset your password',
}

/** The title block shared by the login modal, its dialogs and the /login screen. */
export function AuthHeading({ view, titleId }: { view: AuthView; titleId: string }) {
  return (
    <div className={styles.authHeading}>
      <h1 id={titleId} className={styles.authHeadingTitle}>
        {TITLES[view]}
      </h1>
      {view !== 'forgot' && (
        <p className={styles.authHeadingOffer} data-testid="free-credits-offer">
          Sign up and get <strong>{SIGNUP_FREE_CREDITS} free credits</strong>.
        </p>
      )}
    </div>
  )
}
