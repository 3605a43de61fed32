import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, ApiData } from '@/types/api'
import { LIBRARY_KEY } from './getLibrary'

type Path = '/imageedit/service/share'
export type ShareBody = ApiBody<Path, 'post'>

export function shareImage(body: ShareBody): Promise<ApiData<Path, 'post'>> {
  return unwrap(client.POST('/imageedit/service/share', { body }))
}

/** The owner's consent (or its withdrawal) to show an input/output pair in the showcase. */
export function useShareImage() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: shareImage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LIBRARY_KEY }),
  })
}
