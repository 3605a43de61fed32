import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData, ApiQuery } from '@/types/api'

export type ShowcaseCandidates = ApiData<'/api/v1/admin/showcase', 'get'>
export type ShowcaseCandidate = ShowcaseCandidates['items'][number]
export type CandidatesQuery = ApiQuery<'/api/v1/admin/showcase', 'get'>

/** Every pair its owner shared (curated or not), for operators. 403 for anyone else. */
export function getShowcaseCandidates(query: CandidatesQuery, signal?: AbortSignal): Promise<ShowcaseCandidates> {
  return unwrap(client.GET('/api/v1/admin/showcase', { params: { query }, signal }))
}

export const showcaseCandidatesKey = ['admin', 'showcase'] as const

export function useShowcaseCandidates(query: CandidatesQuery) {
  return useQuery({
    queryKey: [...showcaseCandidatesKey, query],
    queryFn: ({ signal }) => getShowcaseCandidates(query, signal),
    // The page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  })
}
