import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import { generationQueryKey } from '@/api/queryKeys'
import type { ApiBody, ApiData } from '@/types/api'
import type { Placement } from '../placement'

export type PlacementBody = ApiBody<'/api/v1/task/{taskId}/placement', 'post'>
export type Rerendered = ApiData<'/api/v1/task/{taskId}/placement', 'post'>

/** Re-render an image with the subject moved and scaled (free): the answer names the new image,
 *  another version of the same generation. */
export function adjustPlacement(imageId: string, placement: Placement): Promise<Rerendered> {
  const body: PlacementBody = { x: placement.x, y: placement.y, scale: placement.scale }
  return unwrap(client.POST('/api/v1/task/{taskId}/placement', { params: { path: { taskId: imageId } }, body }))
}

/** The re-render, then the generation again: its new image shows, and the output page keeps
 *  refreshing (useGeneration) until that image has finished. */
export function useAdjustPlacement(generationId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ imageId, placement }: { imageId: string; placement: Placement }) => adjustPlacement(imageId, placement),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: generationQueryKey(generationId) }),
  })
}
