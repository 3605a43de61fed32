import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiData } from '@/types/api'

const PATH = '/imageedit/service/all'

export type GenerationPage = ApiData<typeof PATH, 'get'>

/** The generation list's page size (spec §9). */
export const GENERATIONS_PAGE_SIZE = 90

export function getGenerations(signal?: AbortSignal): Promise<GenerationPage> {
  return api.get<GenerationPage>(PATH, { pageNumber: 1, pageSize: GENERATIONS_PAGE_SIZE }, signal)
}

export const latestGenerationsQueryOptions = (userEmail: string) =>
  queryOptions({
    queryKey: ['generations', 'latest', userEmail],
    queryFn: ({ signal }) => getGenerations(signal),
  })

/** The newest generations of the signed-in user (all services and statuses). */
export function useLatestGenerations(userEmail: string | null) {
  return useQuery({
    ...latestGenerationsQueryOptions(userEmail ?? ''),
    enabled: Boolean(userEmail),
    // Running ones change status on their own: look again now and then until they end.
    refetchInterval: (query) =>
      query.state.data?.items.some((g) => g.status === 'queued' || g.status === 'running') ? 5000 : false,
  })
}
