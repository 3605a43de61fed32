import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '@/lib/api'
import type { ApiData, ApiQuery, RequestType } from '@/types/api'

const PATH = '/imageedit/service/showCaseFromS3'

export type ShowcasePage = ApiData<typeof PATH, 'get'>
export type ShowcasePair = ShowcasePage['items'][number]
export type ShowcaseQuery = Required<Pick<ApiQuery<typeof PATH, 'get'>, 'pageNum' | 'pageSize'>> & {
  serviceType: RequestType
}

/** Curated before/after pairs. Public: sent without a session, so a visitor needs none. */
export function getShowcase(query: ShowcaseQuery, signal?: AbortSignal): Promise<ShowcasePage> {
  return request<ShowcasePage>(PATH, { method: 'GET', query, signal, auth: false })
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
