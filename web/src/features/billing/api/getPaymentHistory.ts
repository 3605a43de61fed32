import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData } from '@/types/api'

type Path = '/api/v1/payment/history'

export type PaymentHistory = ApiData<Path, 'get'>
export type Payment = PaymentHistory['items'][number]

export const PAYMENTS_PAGE_SIZE = 10

export function getPaymentHistory(page: number, signal?: AbortSignal): Promise<PaymentHistory> {
  const query = { pageNum: page, pageSize: PAYMENTS_PAGE_SIZE }
  return unwrap(client.GET('/api/v1/payment/history', { params: { query }, signal }))
}

export const paymentHistoryQueryOptions = (userEmail: string, page: number) =>
  queryOptions({
    queryKey: ['billing', 'payments', userEmail, page],
    queryFn: ({ signal }) => getPaymentHistory(page, signal),
    placeholderData: keepPreviousData,
  })

/** The caller's payments, newest first, a page at a time. */
export function usePaymentHistory(userEmail: string, page: number) {
  return useQuery(paymentHistoryQueryOptions(userEmail, page))
}
