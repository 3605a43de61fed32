import { useMutation } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody } from '@/types/api'
import type { components } from '@/types/openapi.gen'

type Path = '/api/v1/inquiry'

export type InquiryBody = ApiBody<Path, 'post'>
/** Answered with 201 (not 200), so not ApiData. */
export type InquirySent = components['schemas']['InquirySent']

/** The spec's demo inquiry (name, contact, email, organization, identifier), kept and mailed to sales. */
export function sendInquiry(body: InquiryBody): Promise<InquirySent> {
  return unwrap(client.POST('/api/v1/inquiry', { body }))
}

export function useSendInquiry() {
  return useMutation({ mutationFn: sendInquiry })
}
