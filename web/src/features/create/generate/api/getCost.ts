import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/api/v1/request/costPublic'
export type CostRequest = ApiBody<Path, 'post'>

export function getCost(body: CostRequest, signal?: AbortSignal): Promise<ApiData<Path, 'post'>> {
  return unwrap(client.POST('/api/v1/request/costPublic', { body, signal }))
}

/** The price of the current choices; null (no request) while there is nothing to price. */
export function useCost(body: CostRequest | null) {
  return useQuery({
    queryKey: ['cost', body],
    queryFn: ({ signal }) => getCost(body!, signal),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  })
}
