// Messages to people: the contact form (support) and the enterprise demo inquiry (sales).
import type { ApiBody } from '@/types/api'
import { client, unwrap } from './client'

/** Sent with the session when there is one (signed in or guest). */
export function sendContact(body: ApiBody<'/api/v1/contact', 'post'>) {
  return unwrap(client.POST('/api/v1/contact', { body }))
}

/** Answered with 201 (not 200). */
export function sendInquiry(body: ApiBody<'/api/v1/inquiry', 'post'>) {
  return unwrap(client.POST('/api/v1/inquiry', { body }))
}
