import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData } from '@/types/api'
import { PICKER_KEYS, catalogKeys, type CatalogKind } from './keys'

type Path = '/api/v1/admin/catalog/{itemId}'
type Deleted = ApiData<Path, 'delete'>

/** Deletes the item with its photo and thumbnail (the built-in backgrounds cannot be). */
export function deleteCatalogItem(itemId: string): Promise<Deleted> {
  return unwrap(client.DELETE('/api/v1/admin/catalog/{itemId}', { params: { path: { itemId } } }))
}

export function useDeleteCatalogItem(kind: CatalogKind) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteCatalogItem,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: catalogKeys.list(kind) })
      for (const queryKey of PICKER_KEYS) void queryClient.invalidateQueries({ queryKey })
    },
  })
}
