import { OTP_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@/config'

// Messages from the spec (§5) are quoted exactly; the others are ours.
export const MSG_REQUIRED = 'Please enter all the value'
export const MSG_BAD_EMAIL = 'Please enter correct email'
export const MSG_TRY_LATER = 'Please try again later.'
export const MSG_PASSWORD_LENGTH = `Password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`
export const MSG_PASSWORD_MISMATCH = 'The passwords do not match.'
export const MSG_OTP = `Enter the ${OTP_LENGTH}-digit code from the email.`
export const MSG_NAME = 'Please enter your name.'

/** No spaces, exactly one @, and a dot inside the domain. */
const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/

export function isValidEmail(email: string): boolean {
  return EMAIL_RE.test(email)
}

/** Emails are case-insensitive; send them trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) return MSG_PASSWORD_LENGTH
  return null
}

export function onlyDigits(value: string, max = OTP_LENGTH): string {
  return value.replace(/\D/g, '').slice(0, max)
}
