import { useInfiniteQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import { SEED_PAGE_SIZE } from '@/config'
import type { ApiData } from '@/types/api'

type Path = '/imageedit/seed'
export type CatalogItemPage = ApiData<Path, 'get'>
export type CatalogItemType = 'background' | 'model'

export function getCatalogItems(
  { type, pagenum, pagesize }: { type: CatalogItemType; pagenum: number; pagesize: number },
  signal?: AbortSignal,
): Promise<CatalogItemPage> {
  const query = { type, pagenum, pagesize }
  return unwrap(client.GET('/imageedit/seed', { params: { query }, signal }))
}

/** Pages of 18 (spec §9), loaded one after the other ("Load more"). */
export function useCatalogItems(type: CatalogItemType) {
  return useInfiniteQuery({
    queryKey: ['catalogItems', type],
    queryFn: ({ pageParam, signal }) => getCatalogItems({ type, pagenum: pageParam, pagesize: SEED_PAGE_SIZE }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * SEED_PAGE_SIZE < (last.total ?? 0) ? pages.length + 1 : undefined),
  })
}
