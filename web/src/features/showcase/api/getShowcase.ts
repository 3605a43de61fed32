import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData, ApiQuery, GenerationKind } from '@/types/api'

type Path = '/imageedit/service/showCaseFromS3'

export type ShowcasePage = ApiData<Path, 'get'>
export type ShowcasePair = ShowcasePage['items'][number]
export type ShowcaseQuery = Required<Pick<ApiQuery<Path, 'get'>, 'pageNum' | 'pageSize'>> & {
  serviceType: GenerationKind
}

/** Curated before/after pairs. Public: sent without a session, so a visitor needs none. */
export function getShowcase(query: ShowcaseQuery, signal?: AbortSignal): Promise<ShowcasePage> {
  return unwrap(client.GET('/imageedit/service/showCaseFromS3', { params: { query }, signal }))
}

export const showcaseQueryOptions = (query: ShowcaseQuery) =>
  queryOptions({
    queryKey: ['showcase', query.serviceType, query.pageNum, query.pageSize],
    queryFn: ({ signal }) => getShowcase(query, signal),
  })

/** One page; the previous page stays on screen while the next one loads. */
export function useShowcase(query: ShowcaseQuery) {
  return useQuery({ ...showcaseQueryOptions(query), placeholderData: keepPreviousData })
}
