import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData } from '@/types/api'

type Path = '/api/v1/user/creditUsage'

export type CreditHistory = ApiData<Path, 'get'>
export type CreditEntry = CreditHistory['entries']['items'][number]

export const CREDITS_PAGE_SIZE = 15

export interface CreditHistoryRange {
  fromDate: string
  toDate: string
}

export function getCreditHistory(range: CreditHistoryRange, page: number, signal?: AbortSignal): Promise<CreditHistory> {
  const query = { ...range, pageNum: page, pageSize: CREDITS_PAGE_SIZE }
  return unwrap(client.GET('/api/v1/user/creditUsage', { params: { query }, signal }))
}

export const creditHistoryQueryOptions = (userEmail: string, range: CreditHistoryRange, page: number) =>
  queryOptions({
    queryKey: ['billing', 'credits', userEmail, range.fromDate, range.toDate, page],
    queryFn: ({ signal }) => getCreditHistory(range, page, signal),
    placeholderData: keepPreviousData,
  })

/** Per-day totals and the ledger entries of a range (entries newest first, paged). */
export function useCreditHistory(userEmail: string, range: CreditHistoryRange, page: number) {
  return useQuery(creditHistoryQueryOptions(userEmail, range, page))
}
