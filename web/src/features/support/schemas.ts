import { z } from 'zod'
import { isValidEmail, MSG_BAD_EMAIL, MSG_FIELD_REQUIRED } from '@/lib/validation'
import type { ContactTopic } from './api/sendContact'

/** The topics, in the order the form offers them; the values are the API's. */
export const CONTACT_TOPICS: ReadonlyArray<{ value: ContactTopic; label: string }> = [
  { value: 'general', label: 'General question' },
  { value: 'technical', label: 'Technical problem' },
  { value: 'billing', label: 'Credits and billing' },
  { value: 'appointment', label: 'Book an appointment' },
]

const TOPIC_VALUES = CONTACT_TOPICS.map((t) => t.value) as [ContactTopic, ...ContactTopic[]]

/** `?topic=` → a known topic, else the general one. */
export function topicFromQuery(value: string | null): ContactTopic {
  return TOPIC_VALUES.find((t) => t === value) ?? 'general'
}

// The API's limits (api/schemas.py ContactBody).
export const NAME_MAX = 128
export const EMAIL_MAX = 320
export const MESSAGE_MAX = 5000

const required = (max: number, tooLong: string) =>
  z.string().trim().min(1, MSG_FIELD_REQUIRED).max(max, tooLong)

export const contactSchema = z.object({
  name: required(NAME_MAX, `Please keep your name under ${NAME_MAX} characters.`),
  email: z
    .string()
    .trim()
    .min(1, MSG_FIELD_REQUIRED)
    .max(EMAIL_MAX, MSG_BAD_EMAIL)
    .refine(isValidEmail, MSG_BAD_EMAIL),
  topic: z.enum(TOPIC_VALUES, { message: MSG_FIELD_REQUIRED }),
  message: required(MESSAGE_MAX, `Please keep the message under ${MESSAGE_MAX} characters.`),
})

export type ContactValues = z.input<typeof contactSchema>
export type ContactPayload = z.output<typeof contactSchema>
