import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData } from '@/types/api'
import { generationQueryKey } from '@/api/queryKeys'
import { LIBRARY_KEY } from './getLibrary'

type DeletedImage = ApiData<'/imageedit/service/{service_id}/task/{task_id}', 'delete'>

export interface ImageRef {
  generationId: string
  imageId: string
}

export function deleteImage({ generationId, imageId }: ImageRef): Promise<DeletedImage> {
  const path = { service_id: generationId, task_id: imageId }
  return unwrap(client.DELETE('/imageedit/service/{service_id}/task/{task_id}', { params: { path } }))
}

/** Deletes one image of a finished generation, its siblings kept (the credit ledger too). */
export function useDeleteImage() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteImage,
    onSuccess: (deleted, { generationId }) => {
      // The generation's page shows one image fewer, or is gone with its last image.
      if (deleted.generationDeleted) queryClient.removeQueries({ queryKey: generationQueryKey(generationId) })
      else void queryClient.invalidateQueries({ queryKey: generationQueryKey(generationId) })
      return queryClient.invalidateQueries({ queryKey: LIBRARY_KEY })
    },
  })
}
