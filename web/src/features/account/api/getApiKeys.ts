import { queryOptions, useQuery } from '@tanstack/react-query'
import * as apiKeysApi from '@/api/apiKeys'
import type { ApiKey } from '@/types/api'

export function getApiKeys(signal?: AbortSignal): Promise<ApiKey[]> {
  return apiKeysApi.listApiKeys(signal)
}

export const apiKeysQueryOptions = (userEmail: string) =>
  queryOptions({
    queryKey: ['apiKeys', userEmail],
    queryFn: ({ signal }) => getApiKeys(signal),
  })

export function useApiKeys(userEmail: string | null) {
  return useQuery({ ...apiKeysQueryOptions(userEmail ?? ''), enabled: Boolean(userEmail) })
}
