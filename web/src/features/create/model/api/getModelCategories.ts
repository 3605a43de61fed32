import { useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData } from '@/types/api'

type Path = '/api/v1/model/categories'
type CategoryList = ApiData<Path, 'get'>

export function getModelCategories(signal?: AbortSignal): Promise<CategoryList> {
  return unwrap(client.GET('/api/v1/model/categories', { signal }))
}

/** The categories of the published models, for the picker's filter (spec §7 `category`). */
export function useModelCategories() {
  return useQuery({
    queryKey: ['modelCategories'],
    queryFn: ({ signal }) => getModelCategories(signal),
    staleTime: 60_000,
  })
}
