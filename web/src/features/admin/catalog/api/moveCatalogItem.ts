import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, ApiData } from '@/types/api'
import { PICKER_KEYS, catalogKeys, type CatalogKind } from './keys'

type Path = '/api/v1/admin/catalog/{itemId}/move'
type Moved = ApiData<Path, 'post'>
export type MoveDirection = ApiBody<Path, 'post'>['direction']

/** One place up or down; the answer is the kind's whole list in its new order. */
export function moveCatalogItem(itemId: string, direction: MoveDirection): Promise<Moved> {
  const body: ApiBody<Path, 'post'> = { direction }
  return unwrap(client.POST('/api/v1/admin/catalog/{itemId}/move', { params: { path: { itemId } }, body }))
}

export function useMoveCatalogItem(kind: CatalogKind) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ itemId, direction }: { itemId: string; direction: MoveDirection }) =>
      moveCatalogItem(itemId, direction),
    onSuccess: (list) => {
      queryClient.setQueryData(catalogKeys.list(kind), list)
      for (const queryKey of PICKER_KEYS) void queryClient.invalidateQueries({ queryKey })
    },
  })
}
