import { useMutation, useQueryClient } from '@tanstack/react-query'
import * as generationsApi from '@/api/generations'
import type { ApiData } from '@/types/api'
import { LIBRARY_KEY } from './getLibrary'

type Deleted = ApiData<'/imageedit/service/{service_id}', 'delete'>

export function deleteGeneration(serviceId: string): Promise<Deleted> {
  return generationsApi.deleteGeneration(serviceId)
}

/** Deletes a finished generation's images (the credit ledger is kept). */
export function useDeleteGeneration() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: deleteGeneration,
    onSuccess: (_data, serviceId) => {
      client.removeQueries({ queryKey: ['service', serviceId] })
      return client.invalidateQueries({ queryKey: LIBRARY_KEY })
    },
  })
}
