import { useState } from 'react'
import { toast } from '@/lib/toast'
import { useGenerateResetPasswordOtp } from '../api/generateResetPasswordOtp'
import { useResetPassword } from '../api/resetPassword'
import { useVerifyResetPasswordOtp } from '../api/verifyResetPasswordOtp'
import { CodeStep, EmailStep, PasswordStep } from './steps'
import styles from '../auth.module.css'

type Step = { name: 'email' } | { name: 'code'; email: string } | { name: 'password'; email: string; otp: string }

interface ForgotPasswordFlowProps {
  /** The password was reset: show the login form. */
  onDone: () => void
  onLogin: () => void
}

/** Forgot password: email → 6-digit code (mailed) → new password, then back to the login form. */
export function ForgotPasswordFlow({ onDone, onLogin }: ForgotPasswordFlowProps) {
  const [step, setStep] = useState<Step>({ name: 'email' })
  const [email, setEmail] = useState('')
  const { mutateAsync: generateResetPasswordOtp } = useGenerateResetPasswordOtp()
  const { mutateAsync: verifyResetPasswordOtp } = useVerifyResetPasswordOtp()
  const { mutateAsync: resetPassword } = useResetPassword()

  return (
    <div className={styles.authForm} data-testid="forgot-flow" data-step={step.name}>
      {step.name === 'email' && (
        <EmailStep
          intro="Enter the email of your account and we will send you a code to reset your password."
          initialEmail={email}
          submitLabel="Send code"
          onSubmit={async (address) => {
            await generateResetPasswordOtp({ email: address })
            setEmail(address)
            setStep({ name: 'code', email: address })
          }}
        />
      )}
      {step.name === 'code' && (
        <CodeStep
          email={step.email}
          onSubmit={async (otp) => {
            await verifyResetPasswordOtp({ email: step.email, otp })
            setStep({ name: 'password', email: step.email, otp })
          }}
          onResend={async () => {
            await generateResetPasswordOtp({ email: step.email })
          }}
          onChangeEmail={() => setStep({ name: 'email' })}
        />
      )}
      {step.name === 'password' && (
        <PasswordStep
          withConfirm
          submitLabel="Reset password"
          onSubmit={async ({ password }) => {
            await resetPassword({ email: step.email, otp: step.otp, password })
            toast.success('Your password has been reset. Please log in with the new password.')
            onDone()
          }}
        />
      )}
      <p className={styles.authFormSwitch}>
        Remembered it?{' '}
        <button type="button" className="link-btn" onClick={onLogin} data-testid="back-to-login">
          Log in
        </button>
      </p>
    </div>
  )
}
