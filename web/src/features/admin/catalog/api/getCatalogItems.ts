import { useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData } from '@/types/api'
import { CATALOG_PATH, catalogKeys, type CatalogKind } from './keys'

type CatalogList = ApiData<typeof CATALOG_PATH, 'get'>

export function getCatalogItems(kind: CatalogKind, signal?: AbortSignal): Promise<CatalogList> {
  return unwrap(client.GET(CATALOG_PATH, { params: { query: { kind } }, signal }))
}

/** Every item of a kind, published or not, in the pickers' order (admins only: 403 else). */
export function useCatalogItems(kind: CatalogKind, enabled = true) {
  return useQuery({
    queryKey: catalogKeys.list(kind),
    queryFn: ({ signal }) => getCatalogItems(kind, signal),
    enabled,
  })
}
