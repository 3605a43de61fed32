import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, ApiData } from '@/types/api'
import { LIBRARY_KEY } from './getLibrary'

type Path = '/imageedit/service/feedback'
export type FeedbackBody = ApiBody<Path, 'post'>
export type FeedbackAnswer = ApiData<Path, 'post'>

export function giveFeedback(body: FeedbackBody): Promise<FeedbackAnswer> {
  return unwrap(client.POST('/imageedit/service/feedback', { body }))
}

/** Thumbs up or down on one image, with an optional comment; giving it again edits it. */
export function useGiveFeedback() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: giveFeedback,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LIBRARY_KEY }),
  })
}
