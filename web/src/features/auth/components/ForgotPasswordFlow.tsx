import { toast } from '@/lib/toast'
import { useGenerateResetPasswordOtp } from '../api/generateResetPasswordOtp'
import { useResetPassword } from '../api/resetPassword'
import { useVerifyResetPasswordOtp } from '../api/verifyResetPasswordOtp'
import { EmailCodeFlow } from './EmailCodeFlow'
import { PasswordStep } from './steps'

interface ForgotPasswordFlowProps {
  /** The password was reset: show the login form. */
  onDone: () => void
  onLogin: () => void
}

/** Forgot password: email → 6-digit code (mailed) → new password, then back to the login form. */
export function ForgotPasswordFlow({ onDone, onLogin }: ForgotPasswordFlowProps) {
  const { mutateAsync: generateResetPasswordOtp } = useGenerateResetPasswordOtp()
  const { mutateAsync: verifyResetPasswordOtp } = useVerifyResetPasswordOtp()
  const { mutateAsync: resetPassword } = useResetPassword()

  return (
    <EmailCodeFlow
      testId="forgot-flow"
      lastStepName="password"
      emailIntro="Enter the email of your account and we will send you a code to reset your password."
      sendCode={(email) => generateResetPasswordOtp({ email })}
      verifyCode={verifyResetPasswordOtp}
      renderLastStep={({ email, otp }) => (
        <PasswordStep
          withConfirm
          submitLabel="Reset password"
          onSubmit={async ({ password }) => {
            await resetPassword({ email, otp, password })
            toast.success('Your password has been reset. Please log in with the new password.')
            onDone()
          }}
        />
      )}
      loginPrompt="Remembered it?"
      onLogin={onLogin}
    />
  )
}
