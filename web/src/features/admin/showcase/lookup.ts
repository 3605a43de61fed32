import { isValidEmail, normalizeEmail } from '@/lib/validation'
import type { GenerationLookup } from './api/findGenerations'

export const MSG_LOOKUP_EMPTY = "Enter a service id or a user's email."
export const MSG_LOOKUP_BAD_EMAIL = 'Please enter correct email'
export const MSG_LOOKUP_BAD_ID = 'A service id has only letters, digits, "-" and "_" (up to 64).'

const SERVICE_ID_RE = /^[A-Za-z0-9_-]{1,64}$/

export type LookupResult = { ok: true; lookup: GenerationLookup } | { ok: false; message: string }

/**
 * What the operator typed in the lookup box: an email (anything with an "@") looks up that
 * user's generations, anything else is a service id (the generation's id).
 */
export function parseLookup(text: string): LookupResult {
  const value = text.trim()
  if (!value) return { ok: false, message: MSG_LOOKUP_EMPTY }
  if (value.includes('@')) {
    return isValidEmail(value)
      ? { ok: true, lookup: { email: normalizeEmail(value) } }
      : { ok: false, message: MSG_LOOKUP_BAD_EMAIL }
  }
  return SERVICE_ID_RE.test(value)
    ? { ok: true, lookup: { serviceId: value } }
    : { ok: false, message: MSG_LOOKUP_BAD_ID }
}
