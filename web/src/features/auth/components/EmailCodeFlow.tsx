import { useState, type ReactNode } from 'react'
import { CodeStep, EmailStep } from './steps'
import styles from '../auth.module.css'

type Step = { name: 'email' } | { name: 'code'; email: string } | { name: 'last'; email: string; otp: string }

/** The address and the mailed code, both confirmed by the server. */
export interface VerifiedEmail {
  email: string
  otp: string
}

interface EmailCodeFlowProps {
  testId: string
  /** The last step's name in `data-step` ('email' and 'code' come first). */
  lastStepName: string
  emailIntro: ReactNode
  /** Mails a code to the address (again, on "Resend"); throws on failure. */
  sendCode: (email: string) => Promise<unknown>
  /** Checks the code the person typed; throws when it is wrong or expired. */
  verifyCode: (verified: VerifiedEmail) => Promise<unknown>
  /** The step after the code: the new password, or the account's name and password. */
  renderLastStep: (verified: VerifiedEmail) => ReactNode
  /** The question before the "Log in" link below the steps. */
  loginPrompt: string
  onLogin: () => void
}

/**
 * Sign-up and forgot password walk the same way: email → 6-digit code (mailed) → a last step
 * of their own. This holds where the person is; going back to the email step keeps the address.
 */
export function EmailCodeFlow({
  testId,
  lastStepName,
  emailIntro,
  sendCode,
  verifyCode,
  renderLastStep,
  loginPrompt,
  onLogin,
}: EmailCodeFlowProps) {
  const [step, setStep] = useState<Step>({ name: 'email' })
  const [email, setEmail] = useState('')

  return (
    <div className={styles.authForm} data-testid={testId} data-step={step.name === 'last' ? lastStepName : step.name}>
      {step.name === 'email' && (
        <EmailStep
          intro={emailIntro}
          initialEmail={email}
          submitLabel="Send code"
          onSubmit={async (address) => {
            await sendCode(address)
            setEmail(address)
            setStep({ name: 'code', email: address })
          }}
        />
      )}
      {step.name === 'code' && (
        <CodeStep
          email={step.email}
          onSubmit={async (otp) => {
            await verifyCode({ email: step.email, otp })
            setStep({ name: 'last', email: step.email, otp })
          }}
          onResend={async () => {
            await sendCode(step.email)
          }}
          onChangeEmail={() => setStep({ name: 'email' })}
        />
      )}
      {step.name === 'last' && renderLastStep(step)}
      <p className={styles.authFormSwitch}>
        {loginPrompt}{' '}
        <button type="button" className="link-btn" onClick={onLogin} data-testid="back-to-login">
          Log in
        </button>
      </p>
    </div>
  )
}
