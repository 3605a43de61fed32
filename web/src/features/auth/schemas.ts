import { z } from 'zod'
import {
  MSG_BAD_EMAIL,
  MSG_PASSWORD_MISMATCH,
  MSG_REQUIRED,
  emailSchema,
  isValidEmail,
  nameSchema,
  otpSchema,
  passwordSchema,
} from '@/lib/validation'

/**
 * Login (spec §5): both fields non-blank, else 'Please enter all the value' for the
 * whole form (errors.root, shown as a toast); then the email pattern, else the inline
 * 'Please enter correct email'. The password is sent as typed.
 */
export const loginSchema = z
  .object({ email: z.string(), password: z.string(), rememberMe: z.boolean() })
  .superRefine((v, ctx) => {
    if (!v.email.trim() || !v.password.trim()) {
      ctx.addIssue({ code: 'custom', path: ['root'], message: MSG_REQUIRED })
      return
    }
    if (!isValidEmail(v.email.trim())) ctx.addIssue({ code: 'custom', path: ['email'], message: MSG_BAD_EMAIL })
  })

export type LoginValues = z.infer<typeof loginSchema>

/** Sign-up and reset, step 1: the email the code is mailed to. */
export const emailStepSchema = z.object({ email: emailSchema })
export type EmailStepValues = z.infer<typeof emailStepSchema>

/** Step 2: the mailed 6-digit code. */
export const codeStepSchema = z.object({ otp: otpSchema })
export type CodeStepValues = z.infer<typeof codeStepSchema>

export interface PasswordStepValues {
  name: string
  password: string
  confirm: string
  rememberMe: boolean
}

/**
 * Step 3: the password (8 to 128 characters), with the name on sign-up and a
 * confirmation on reset; a mismatch is only reported once the password itself is fine.
 */
export function passwordStepSchema({ withName = false, withConfirm = false } = {}) {
  return z
    .object({
      name: withName ? nameSchema : z.string(),
      password: passwordSchema,
      confirm: z.string(),
      rememberMe: z.boolean(),
    })
    .superRefine((v, ctx) => {
      if (withConfirm && passwordSchema.safeParse(v.password).success && v.confirm !== v.password) {
        ctx.addIssue({ code: 'custom', path: ['confirm'], message: MSG_PASSWORD_MISMATCH })
      }
    }) satisfies z.ZodType<PasswordStepValues>
}
