import { useMutation, useQueryClient } from '@tanstack/react-query'
import * as generationsApi from '@/api/generations'
import type { ApiBody, ApiData } from '@/types/api'
import { LIBRARY_KEY } from './getLibrary'

type Path = '/imageedit/service/share'
export type ShareBody = ApiBody<Path, 'post'>

export function shareImage(body: ShareBody): Promise<ApiData<Path, 'post'>> {
  return generationsApi.shareImage(body)
}

/** The owner's consent (or its withdrawal) to show an input/output pair in the showcase. */
export function useShareImage() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: shareImage,
    onSuccess: () => client.invalidateQueries({ queryKey: LIBRARY_KEY }),
  })
}
