import { useMutation, useQueryClient } from '@tanstack/react-query'
import * as generationsApi from '@/api/generations'
import type { ApiData } from '@/types/api'
import { LIBRARY_KEY } from './getLibrary'

type DeletedImage = ApiData<'/imageedit/service/{service_id}/task/{task_id}', 'delete'>

export interface ImageRef {
  serviceId: string
  taskId: string
}

export function deleteImage({ serviceId, taskId }: ImageRef): Promise<DeletedImage> {
  return generationsApi.deleteImage(serviceId, taskId)
}

/** Deletes one image of a finished generation, its siblings kept (the credit ledger too). */
export function useDeleteImage() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: deleteImage,
    onSuccess: (deleted, { serviceId }) => {
      // The generation's page shows one image fewer, or is gone with its last image.
      if (deleted.generationDeleted) client.removeQueries({ queryKey: ['service', serviceId] })
      else void client.invalidateQueries({ queryKey: ['service', serviceId] })
      return client.invalidateQueries({ queryKey: LIBRARY_KEY })
    },
  })
}
