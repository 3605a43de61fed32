import { useMutation, useQueryClient } from '@tanstack/react-query'
import * as generationsApi from '@/api/generations'
import type { ApiBody, ApiData } from '@/types/api'
import { LIBRARY_KEY } from './getLibrary'

type Path = '/imageedit/service/feedback'
export type FeedbackBody = ApiBody<Path, 'post'>
export type FeedbackAnswer = ApiData<Path, 'post'>

export function giveFeedback(body: FeedbackBody): Promise<FeedbackAnswer> {
  return generationsApi.giveFeedback(body)
}

/** Thumbs up or down on one image, with an optional comment; giving it again edits it. */
export function useGiveFeedback() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: giveFeedback,
    onSuccess: () => client.invalidateQueries({ queryKey: LIBRARY_KEY }),
  })
}
