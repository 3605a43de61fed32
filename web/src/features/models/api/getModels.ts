import { api } from '@/lib/api'
import type { CatalogModel, Paged } from '@/types/api'

export function getModels(
  { pageNum, pageSize, category = '' }: { pageNum: number; pageSize: number; category?: string },
  signal?: AbortSignal,
): Promise<Paged<CatalogModel>> {
  return api.get<Paged<CatalogModel>>(
    '/api/v1/model',
    { pageNum, pageSize, visibility: 'public', currentProduct: 'bodySwap', category },
    signal,
  )
}
