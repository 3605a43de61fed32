import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiData } from '@/types/api'

const PATH = '/api/v1/payment/history'

export type PaymentHistory = ApiData<typeof PATH, 'get'>
export type Payment = PaymentHistory['items'][number]

export const PAYMENTS_PAGE_SIZE = 10

export function getPaymentHistory(pageNum: number, signal?: AbortSignal): Promise<PaymentHistory> {
  return api.get<PaymentHistory>(PATH, { pageNum, pageSize: PAYMENTS_PAGE_SIZE }, signal)
}

export const paymentHistoryQueryOptions = (userEmail: string, pageNum: number) =>
  queryOptions({
    queryKey: ['billing', 'payments', userEmail, pageNum],
    queryFn: ({ signal }) => getPaymentHistory(pageNum, signal),
    placeholderData: keepPreviousData,
  })

/** The caller's payments, newest first, a page at a time. */
export function usePaymentHistory(userEmail: string, pageNum: number) {
  return useQuery(paymentHistoryQueryOptions(userEmail, pageNum))
}
