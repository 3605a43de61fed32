import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiData } from '@/types/api'

const PATH = '/api/v1/model/categories'
type CategoryList = ApiData<typeof PATH, 'get'>

export function getModelCategories(signal?: AbortSignal): Promise<CategoryList> {
  return api.get<CategoryList>(PATH, undefined, signal)
}

/** The categories of the published models, for the picker's filter (spec §7 `category`). */
export function useModelCategories() {
  return useQuery({
    queryKey: ['modelCategories'],
    queryFn: ({ signal }) => getModelCategories(signal),
    staleTime: 60_000,
  })
}
