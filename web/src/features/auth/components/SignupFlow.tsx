import { useState } from 'react'
import { SIGNUP_FREE_CREDITS } from '@/config'
import { getDistributorId } from '@/lib/identity'
import { toast } from '@/lib/toast'
import { useGenerateSignupOtp } from '../api/generateSignupOtp'
import { useSignup } from '../api/signup'
import { useVerifySignupOtp } from '../api/verifySignupOtp'
import { completeLogin } from '../session'
import { CodeStep, EmailStep, PasswordStep } from './steps'
import styles from '../auth.module.css'

type Step = { name: 'email' } | { name: 'code'; email: string } | { name: 'details'; email: string; otp: string }

interface SignupFlowProps {
  onLoggedIn: () => void
  onLogin: () => void
}

/** Sign-up: email → 6-digit code (mailed) → name and password. Ends logged in. */
export function SignupFlow({ onLoggedIn, onLogin }: SignupFlowProps) {
  const [step, setStep] = useState<Step>({ name: 'email' })
  const [email, setEmail] = useState('')
  const { mutateAsync: generateSignupOtp } = useGenerateSignupOtp()
  const { mutateAsync: verifySignupOtp } = useVerifySignupOtp()
  const { mutateAsync: signup } = useSignup()

  return (
    <div className={styles.authForm} data-testid="signup-flow" data-step={step.name}>
      {step.name === 'email' && (
        <EmailStep
          // The heading above already offers the free credits (AuthHeading): said once.
          intro="Enter your email. We will email you a code to confirm it."
          initialEmail={email}
          submitLabel="Send code"
          onSubmit={async (address) => {
            await generateSignupOtp({ email: address })
            setEmail(address)
            setStep({ name: 'code', email: address })
          }}
        />
      )}
      {step.name === 'code' && (
        <CodeStep
          email={step.email}
          onSubmit={async (otp) => {
            await verifySignupOtp({ email: step.email, otp })
            setStep({ name: 'details', email: step.email, otp })
          }}
          onResend={async () => {
            await generateSignupOtp({ email: step.email })
          }}
          onChangeEmail={() => setStep({ name: 'email' })}
        />
      )}
      {step.name === 'details' && (
        <PasswordStep
          withName
          withRemember
          submitLabel="Create account"
          onSubmit={async ({ name, password, rememberMe }) => {
            const result = await signup({
              email: step.email,
              otp: step.otp,
              name,
              password,
              distributorId: getDistributorId(),
              rememberMe,
            })
            completeLogin(result, rememberMe)
            toast.success(`Welcome, ${result.user.userName || name}! Your ${SIGNUP_FREE_CREDITS} free credits are ready.`)
            onLoggedIn()
          }}
        />
      )}
      <p className={styles.authFormSwitch}>
        Already have an account?{' '}
        <button type="button" className="link-btn" onClick={onLogin} data-testid="back-to-login">
          Log in
        </button>
      </p>
    </div>
  )
}
