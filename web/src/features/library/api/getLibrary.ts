import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData, ApiQuery, GenerationKind, GenerationStatus } from '@/types/api'
import { anyActive, LIBRARY_LIVE_MS, LIBRARY_PAGE_SIZE } from '../generations'

type Path = '/imageedit/service/all'
export type LibraryPage = ApiData<Path, 'get'>

/** Every cached page of the library (invalidated after a delete, feedback or share). */
export const LIBRARY_KEY = ['library'] as const

export interface LibraryFilters {
  kind: GenerationKind | ''
  status: GenerationStatus | ''
  page: number
}

export function getLibrary(filters: LibraryFilters, signal?: AbortSignal): Promise<LibraryPage> {
  const query: ApiQuery<Path, 'get'> = {
    service: filters.kind || undefined,
    status: filters.status || undefined,
    pageNumber: filters.page,
    pageSize: LIBRARY_PAGE_SIZE,
  }
  return unwrap(client.GET('/imageedit/service/all', { params: { query }, signal }))
}

export function libraryQueryOptions(userEmail: string | null, filters: LibraryFilters) {
  return queryOptions({
    queryKey: [...LIBRARY_KEY, userEmail, filters],
    queryFn: ({ signal }) => getLibrary(filters, signal),
    enabled: Boolean(userEmail),
    // Live while anything is queued or running; quiet otherwise.
    refetchInterval: (query) => (anyActive(query.state.data?.items) ? LIBRARY_LIVE_MS : false),
    placeholderData: keepPreviousData,
  })
}

/** The signed-in user's generations, newest first, one page (90) at a time. */
export function useLibrary(userEmail: string | null, filters: LibraryFilters) {
  return useQuery(libraryQueryOptions(userEmail, filters))
}
