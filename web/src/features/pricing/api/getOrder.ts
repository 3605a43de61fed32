import { queryOptions, useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData } from '@/types/api'
import { isFinalStatus } from '../pricing'

export type Order = ApiData<'/api/v1/payment/order/{orderId}', 'get'>

/** How often /success asks again while the order is pending. */
export const ORDER_POLL_MS = 1000

export function getOrder(orderId: string, signal?: AbortSignal): Promise<Order> {
  return unwrap(client.GET('/api/v1/payment/order/{orderId}', { params: { path: { orderId } }, signal }))
}

export const orderQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: ['payment-order', orderId],
    queryFn: ({ signal }) => getOrder(orderId, signal),
  })

/** One of the caller's orders; `follow`: ask again until it is paid, failed or canceled. */
export function useOrder(orderId: string | null, { follow = false }: { follow?: boolean } = {}) {
  return useQuery({
    ...orderQueryOptions(orderId ?? ''),
    enabled: Boolean(orderId),
    refetchInterval: (query) => (follow && !isFinalStatus(query.state.data?.status) ? ORDER_POLL_MS : false),
  })
}
