import { queryOptions, useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData } from '@/types/api'

type Path = '/imageedit/service/all'

export type GenerationPage = ApiData<Path, 'get'>

/** The generation list's page size (spec §9). */
export const GENERATIONS_PAGE_SIZE = 90

export function getGenerations(signal?: AbortSignal): Promise<GenerationPage> {
  const query = { pageNumber: 1, pageSize: GENERATIONS_PAGE_SIZE }
  return unwrap(client.GET('/imageedit/service/all', { params: { query }, signal }))
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
