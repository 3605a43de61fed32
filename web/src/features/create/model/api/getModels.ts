import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { MODEL_PAGE_SIZE } from '@/config'
import * as catalogApi from '@/api/catalogPickers'
import type { ApiData, ApiQuery } from '@/types/api'

type Path = '/api/v1/model'
export type ModelPage = ApiData<Path, 'get'>

export function getModels(
  { pageNum, pageSize, category = '' }: { pageNum: number; pageSize: number; category?: string },
  signal?: AbortSignal,
): Promise<ModelPage> {
  const query: ApiQuery<Path, 'get'> = {
    pageNum,
    pageSize,
    visibility: 'public',
    currentProduct: 'bodySwap',
    category,
  }
  return catalogApi.getModels(query, signal)
}

/** One page of the catalog; the previous page stays on screen while the next one loads. */
export function useModels(pageNum: number, category = '') {
  return useQuery({
    queryKey: ['models', { pageNum, category }],
    queryFn: ({ signal }) => getModels({ pageNum, pageSize: MODEL_PAGE_SIZE, category }, signal),
    placeholderData: keepPreviousData,
  })
}
