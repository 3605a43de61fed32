import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, ApiData } from '@/types/api'
import { PICKER_KEYS, catalogKeys, type CatalogKind } from './keys'

type Path = '/api/v1/admin/catalog/{itemId}'
type Updated = ApiData<Path, 'patch'>
export type CatalogChanges = ApiBody<Path, 'patch'>

/** Only the fields given change: name, category, visibility, published. */
export function updateCatalogItem(itemId: string, changes: CatalogChanges): Promise<Updated> {
  return unwrap(client.PATCH('/api/v1/admin/catalog/{itemId}', { params: { path: { itemId } }, body: changes }))
}

export function useUpdateCatalogItem(kind: CatalogKind) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ itemId, changes }: { itemId: string; changes: CatalogChanges }) =>
      updateCatalogItem(itemId, changes),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: catalogKeys.list(kind) })
      for (const queryKey of PICKER_KEYS) void queryClient.invalidateQueries({ queryKey })
    },
  })
}
