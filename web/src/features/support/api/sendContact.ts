import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiBody, ApiData } from '@/types/api'

const PATH = '/api/v1/contact'

export type ContactBody = ApiBody<typeof PATH, 'post'>
export type ContactTopic = NonNullable<ContactBody['topic']>

/** Kept and mailed to support; sent with the session when there is one (signed in or guest). */
export function sendContact(body: ContactBody): Promise<ApiData<typeof PATH, 'post'>> {
  return api.post(PATH, body)
}

export function useSendContact() {
  return useMutation({ mutationFn: sendContact })
}
