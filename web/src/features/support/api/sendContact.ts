import { useMutation } from '@tanstack/react-query'
import * as supportApi from '@/api/support'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/api/v1/contact'

export type ContactBody = ApiBody<Path, 'post'>
export type ContactTopic = NonNullable<ContactBody['topic']>

/** Kept and mailed to support; sent with the session when there is one (signed in or guest). */
export function sendContact(body: ContactBody): Promise<ApiData<Path, 'post'>> {
  return supportApi.sendContact(body)
}

export function useSendContact() {
  return useMutation({ mutationFn: sendContact })
}
