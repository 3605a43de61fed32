import { queryOptions, useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiKey } from '@/types/api'

export function getApiKeys(signal?: AbortSignal): Promise<ApiKey[]> {
  return unwrap(client.GET('/api/v1/api-keys', { signal }))
}

export const apiKeysQueryOptions = (userEmail: string) =>
  queryOptions({
    queryKey: ['apiKeys', userEmail],
    queryFn: ({ signal }) => getApiKeys(signal),
  })

export function useApiKeys(userEmail: string | null) {
  return useQuery({ ...apiKeysQueryOptions(userEmail ?? ''), enabled: Boolean(userEmail) })
}
