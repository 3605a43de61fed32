import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api'
import type { AppConfig } from '@/types/api'

const PATH = '/api/v1/config'

/** The server's limits and switches (public; the one source of the numbers the FAQ quotes). */
export function getSiteConfig(signal?: AbortSignal): Promise<AppConfig> {
  return request<AppConfig>(PATH, { method: 'GET', signal, auth: false })
}

export const siteConfigQueryOptions = queryOptions({
  queryKey: ['siteConfig'],
  queryFn: ({ signal }) => getSiteConfig(signal),
  staleTime: 10 * 60 * 1000,
})

export function useSiteConfig() {
  return useQuery(siteConfigQueryOptions)
}
