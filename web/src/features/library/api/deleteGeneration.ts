import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import { generationQueryKey } from '@/api/queryKeys'
import type { ApiData } from '@/types/api'
import { LIBRARY_KEY } from './getLibrary'

type Deleted = ApiData<'/imageedit/service/{service_id}', 'delete'>

export function deleteGeneration(generationId: string): Promise<Deleted> {
  return unwrap(client.DELETE('/imageedit/service/{service_id}', { params: { path: { service_id: generationId } } }))
}

/** Deletes a finished generation's images (the credit ledger is kept). */
export function useDeleteGeneration() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteGeneration,
    onSuccess: (_data, generationId) => {
      queryClient.removeQueries({ queryKey: generationQueryKey(generationId) })
      return queryClient.invalidateQueries({ queryKey: LIBRARY_KEY })
    },
  })
}
