import { z } from 'zod'
import { MSG_BAD_EMAIL, MSG_FIELD_REQUIRED, MSG_ONLY_NUMBERS, isValidEmail } from '@/lib/validation'

/**
 * The 'Enterprise Solutions' form (spec §2 Pricing page, §5): Full Name, Email
 * Address, Contact No. and Company Name, every one required ('This field is
 * required'); the contact number is digits only ('Only numbers are allowed'; the
 * input also ignores non-digit typing, see lib/validation onlyDigits). The email
 * must also look like one. Sent as the spec's demo inquiry: name, contact, email,
 * organization.
 */
// `abort`: an empty field reports only that it is required.
const required = z.string().trim().min(1, { message: MSG_FIELD_REQUIRED, abort: true })

export const enterpriseSchema = z.object({
  fullName: required,
  email: required.refine(isValidEmail, MSG_BAD_EMAIL),
  contact: required.regex(/^\d+$/, MSG_ONLY_NUMBERS),
  company: required,
})

export type EnterpriseValues = z.infer<typeof enterpriseSchema>

/** Spec §8: what the inquiry's answer shows. */
export const ENTERPRISE_SUBMITTED = 'Request Submitted: Our Expert will connect you soon.'
export const ENTERPRISE_FAILED = 'There was some error: Please try again later.'
