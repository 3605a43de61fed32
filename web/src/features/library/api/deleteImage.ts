import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData } from '@/types/api'
import { LIBRARY_KEY } from './getLibrary'

type DeletedImage = ApiData<'/imageedit/service/{service_id}/task/{task_id}', 'delete'>

export interface ImageRef {
  serviceId: string
  taskId: string
}

export function deleteImage({ serviceId, taskId }: ImageRef): Promise<DeletedImage> {
  const path = { service_id: serviceId, task_id: taskId }
  return unwrap(client.DELETE('/imageedit/service/{service_id}/task/{task_id}', { params: { path } }))
}

/** Deletes one image of a finished generation, its siblings kept (the credit ledger too). */
export function useDeleteImage() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteImage,
    onSuccess: (deleted, { serviceId }) => {
      // The generation's page shows one image fewer, or is gone with its last image.
      if (deleted.generationDeleted) queryClient.removeQueries({ queryKey: ['service', serviceId] })
      else void queryClient.invalidateQueries({ queryKey: ['service', serviceId] })
      return queryClient.invalidateQueries({ queryKey: LIBRARY_KEY })
    },
  })
}
