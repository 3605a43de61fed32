import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiData, ApiQuery } from '@/types/api'
import { CATALOG_PATH, catalogKeys, type CatalogKind } from './keys'

type CatalogList = ApiData<typeof CATALOG_PATH, 'get'>

export function getCatalogItems(kind: CatalogKind, signal?: AbortSignal): Promise<CatalogList> {
  const query: ApiQuery<typeof CATALOG_PATH, 'get'> = { kind }
  return api.get<CatalogList>(CATALOG_PATH, query, signal)
}

/** Every item of a kind, published or not, in the pickers' order (admins only: 403 else). */
export function useCatalogItems(kind: CatalogKind, enabled = true) {
  return useQuery({
    queryKey: catalogKeys.list(kind),
    queryFn: ({ signal }) => getCatalogItems(kind, signal),
    enabled,
  })
}
