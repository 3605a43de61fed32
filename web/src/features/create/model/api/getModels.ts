import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import { MODEL_PAGE_SIZE } from '@/config'
import type { ApiData, ApiQuery } from '@/types/api'
import type { ModelFilters } from '../labels'

type Path = '/api/v1/model'
export type ModelPage = ApiData<Path, 'get'>

export function getModels(
  {
    page,
    pageSize,
    category = '',
    filters = {},
  }: { page: number; pageSize: number; category?: string; filters?: ModelFilters },
  signal?: AbortSignal,
): Promise<ModelPage> {
  const query: ApiQuery<Path, 'get'> = {
    pageNum: page,
    pageSize,
    visibility: 'public',
    currentProduct: 'bodySwap',
    category,
  }
  // Only the chosen filters are sent ("All" sends none).
  if (filters.gender) query.gender = filters.gender
  if (filters.skinTone) query.skinTone = filters.skinTone
  if (filters.bodyType) query.bodyType = filters.bodyType
  return unwrap(client.GET('/api/v1/model', { params: { query }, signal }))
}

/** One page of the catalog; the previous page stays on screen while the next one loads. */
export function useModels(page: number, category = '', filters: ModelFilters = {}) {
  return useQuery({
    queryKey: ['models', { page, category, ...filters }],
    queryFn: ({ signal }) => getModels({ page, pageSize: MODEL_PAGE_SIZE, category, filters }, signal),
    placeholderData: keepPreviousData,
  })
}
