import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiBody, ApiData } from '@/types/api'
import { LIBRARY_KEY } from './getLibrary'

const PATH = '/imageedit/service/share'
export type ShareBody = ApiBody<typeof PATH, 'post'>

export function shareImage(body: ShareBody): Promise<ApiData<typeof PATH, 'post'>> {
  return api.post(PATH, body)
}

/** The owner's consent (or its withdrawal) to show an input/output pair in the showcase. */
export function useShareImage() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: shareImage,
    onSuccess: () => client.invalidateQueries({ queryKey: LIBRARY_KEY }),
  })
}
