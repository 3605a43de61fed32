import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, ApiData } from '@/types/api'
import { showcaseCandidatesKey, type ShowcaseCandidates } from './getShowcaseCandidates'

export type CuratedPair = ApiData<'/api/v1/admin/showcase/{taskId}', 'put'>
export interface CurateVariables extends ApiBody<'/api/v1/admin/showcase/{taskId}', 'put'> {
  imageId: string
}

/** Shows a shared pair in the public showcase, or takes it off. */
export function curateShowcase({ imageId, showcased }: CurateVariables): Promise<CuratedPair> {
  return unwrap(client.PUT('/api/v1/admin/showcase/{taskId}', { params: { path: { taskId: imageId } }, body: { showcased } }))
}

export function useCurateShowcase() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: curateShowcase,
    onSuccess: (pair) => {
      // Every cached page that holds this pair shows the new state at once.
      queryClient.setQueriesData<ShowcaseCandidates>({ queryKey: showcaseCandidatesKey }, (page) =>
        page
          ? { ...page, items: page.items.map((item) => (item.taskId === pair.taskId ? { ...item, ...pair } : item)) }
          : page,
      )
    },
    // A pair its owner stopped sharing is gone from the list: refetch to show the truth.
    onError: () => queryClient.invalidateQueries({ queryKey: showcaseCandidatesKey }),
  })
}
