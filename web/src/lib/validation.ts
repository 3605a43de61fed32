/**
 * Validation rules and messages shared by the forms (zod schemas, used through
 * react-hook-form). Messages from the spec (§5) are quoted exactly; the others are ours.
 */
import { z } from 'zod'
import { OTP_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@/config'

export const MSG_REQUIRED = 'Please enter all the value'
export const MSG_BAD_EMAIL = 'Please enter correct email'
export const MSG_FIELD_REQUIRED = 'This field is required'
export const MSG_ONLY_NUMBERS = 'Only numbers are allowed'
export const MSG_TRY_LATER = 'Please try again later.'
export const MSG_PASSWORD_LENGTH = `Password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`
export const MSG_PASSWORD_MISMATCH = 'The passwords do not match.'
export const MSG_OTP = `Enter the ${OTP_LENGTH}-digit code from the email.`
export const MSG_NAME = 'Please enter your name.'
export const MSG_CURRENT_PASSWORD = 'Please enter your current password.'

/** No spaces, exactly one @, and a dot inside the domain (spec §5). */
const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/

export function isValidEmail(email: string): boolean {
  return EMAIL_RE.test(email)
}

/** Emails are case-insensitive; send them trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

/** Keeps the digits only (typing anything else is ignored), up to `max`. */
export function onlyDigits(value: string, max = Number.POSITIVE_INFINITY): string {
  return value.replace(/\D/g, '').slice(0, max)
}

/** An email field: trimmed, then the spec's pattern. */
export const emailSchema = z.string().trim().refine(isValidEmail, MSG_BAD_EMAIL)

export const passwordSchema = z
  .string()
  .refine((p) => p.length >= PASSWORD_MIN_LENGTH && p.length <= PASSWORD_MAX_LENGTH, MSG_PASSWORD_LENGTH)

export const nameSchema = z.string().trim().min(1, MSG_NAME).max(100, MSG_NAME)

export const otpSchema = z.string().regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), MSG_OTP)
