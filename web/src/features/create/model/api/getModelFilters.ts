import { useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData } from '@/types/api'

type Path = '/api/v1/model/filters'
export type ModelFilterValues = ApiData<Path, 'get'>

export function getModelFilters(signal?: AbortSignal): Promise<ModelFilterValues> {
  return unwrap(client.GET('/api/v1/model/filters', { signal }))
}

/** The gender, skin tone and body type values published models have: the picker offers only these. */
export function useModelFilters() {
  return useQuery({
    queryKey: ['modelFilters'],
    queryFn: ({ signal }) => getModelFilters(signal),
    staleTime: 60_000,
  })
}
