import { useInfiniteQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import { SEED_PAGE_SIZE } from '@/config'
import type { ApiData } from '@/types/api'

type Path = '/imageedit/seed'
export type SeedPage = ApiData<Path, 'get'>
export type SeedType = 'background' | 'model'

export function getSeeds(
  { type, pagenum, pagesize }: { type: SeedType; pagenum: number; pagesize: number },
  signal?: AbortSignal,
): Promise<SeedPage> {
  const query = { type, pagenum, pagesize }
  return unwrap(client.GET('/imageedit/seed', { params: { query }, signal }))
}

/** Pages of 18 (spec §9), loaded one after the other ("Load more"). */
export function useSeeds(type: SeedType) {
  return useInfiniteQuery({
    queryKey: ['seeds', type],
    queryFn: ({ pageParam, signal }) => getSeeds({ type, pagenum: pageParam, pagesize: SEED_PAGE_SIZE }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * SEED_PAGE_SIZE < (last.total ?? 0) ? pages.length + 1 : undefined),
  })
}
