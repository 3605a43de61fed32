import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiBody, ApiData } from '@/types/api'
import { LIBRARY_KEY } from './getLibrary'

const PATH = '/imageedit/service/feedback'
export type FeedbackBody = ApiBody<typeof PATH, 'post'>
export type FeedbackAnswer = ApiData<typeof PATH, 'post'>

export function giveFeedback(body: FeedbackBody): Promise<FeedbackAnswer> {
  return api.post(PATH, body)
}

/** Thumbs up or down on one image, with an optional comment; giving it again edits it. */
export function useGiveFeedback() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: giveFeedback,
    onSuccess: () => client.invalidateQueries({ queryKey: LIBRARY_KEY }),
  })
}
