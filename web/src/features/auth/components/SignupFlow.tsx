import { SIGNUP_FREE_CREDITS } from '@/config'
import { getDistributorId } from '@/lib/identity'
import { toast } from '@/lib/toast'
import { useGenerateSignupOtp } from '../api/generateSignupOtp'
import { useSignup } from '../api/signup'
import { useVerifySignupOtp } from '../api/verifySignupOtp'
import { completeLogin } from '../session'
import { EmailCodeFlow } from './EmailCodeFlow'
import { PasswordStep } from './steps'

interface SignupFlowProps {
  onLoggedIn: () => void
  onLogin: () => void
}

/** Sign-up: email → 6-digit code (mailed) → name and password. Ends logged in. */
export function SignupFlow({ onLoggedIn, onLogin }: SignupFlowProps) {
  const { mutateAsync: generateSignupOtp } = useGenerateSignupOtp()
  const { mutateAsync: verifySignupOtp } = useVerifySignupOtp()
  const { mutateAsync: signup } = useSignup()

  return (
    <EmailCodeFlow
      testId="signup-flow"
      lastStepName="details"
      // The heading above already offers the free credits (AuthHeading): said once.
      emailIntro="Enter your email. We will email you a code to confirm it."
      sendCode={(email) => generateSignupOtp({ email })}
      verifyCode={verifySignupOtp}
      renderLastStep={({ email, otp }) => (
        <PasswordStep
          withName
          withRemember
          submitLabel="Create account"
          onSubmit={async ({ name, password, rememberMe }) => {
            const result = await signup({ email, otp, name, password, distributorId: getDistributorId(), rememberMe })
            completeLogin(result, rememberMe)
            toast.success(`Welcome, ${result.user.userName || name}! Your ${SIGNUP_FREE_CREDITS} free credits are ready.`)
            onLoggedIn()
          }}
        />
      )}
      loginPrompt="Already have an account?"
      onLogin={onLogin}
    />
  )
}
