import { useMutation } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/api/v1/contact'

export type ContactBody = ApiBody<Path, 'post'>
export type ContactTopic = NonNullable<ContactBody['topic']>

/** Kept and mailed to support; sent with the session when there is one (signed in or guest). */
export function sendContact(body: ContactBody): Promise<ApiData<Path, 'post'>> {
  return unwrap(client.POST('/api/v1/contact', { body }))
}

export function useSendContact() {
  return useMutation({ mutationFn: sendContact })
}
