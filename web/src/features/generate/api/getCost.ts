import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiBody, ApiData } from '@/types/api'

const PATH = '/api/v1/request/costPublic'
export type CostRequest = ApiBody<typeof PATH, 'post'>

export function getCost(body: CostRequest, signal?: AbortSignal): Promise<ApiData<typeof PATH, 'post'>> {
  return api.post(PATH, body, { signal })
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
