import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiBody } from '@/types/api'
import type { components } from '@/types/openapi.gen'

const PATH = '/api/v1/inquiry'

export type InquiryBody = ApiBody<typeof PATH, 'post'>
/** Answered with 201 (not 200), so not ApiData. */
export type InquirySent = components['schemas']['InquirySent']

/** The spec's demo inquiry (name, contact, email, organization, identifier), kept and mailed to sales. */
export function sendInquiry(body: InquiryBody): Promise<InquirySent> {
  return api.post(PATH, body)
}

export function useSendInquiry() {
  return useMutation({ mutationFn: sendInquiry })
}
