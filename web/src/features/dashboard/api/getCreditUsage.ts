import { queryOptions, useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData, ApiQuery } from '@/types/api'

type Path = '/api/v1/user/creditUsage'

export type CreditUsage = ApiData<Path, 'get'>
export type CreditUsageRange = Required<Pick<ApiQuery<Path, 'get'>, 'fromDate' | 'toDate'>>

export function getCreditUsage(range: CreditUsageRange, signal?: AbortSignal): Promise<CreditUsage> {
  return unwrap(client.GET('/api/v1/user/creditUsage', { params: { query: range }, signal }))
}

export const creditUsageQueryOptions = (userEmail: string, range: CreditUsageRange) =>
  queryOptions({
    queryKey: ['creditUsage', userEmail, range.fromDate, range.toDate],
    queryFn: ({ signal }) => getCreditUsage(range, signal),
  })

/** Credits spent and given back per UTC day, from the ledger (signed-in users only). */
export function useCreditUsage(userEmail: string | null, range: CreditUsageRange) {
  return useQuery({ ...creditUsageQueryOptions(userEmail ?? '', range), enabled: Boolean(userEmail) })
}
