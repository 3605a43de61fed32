// The caller's subscription (commerce contract), read by the billing page and the dashboard.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { ApiError } from '@/lib/api'
import type { ApiData } from '@/types/api'
import { client, unwrap } from './client'

type Path = '/api/v1/payment/subscription'

type Answer = ApiData<Path, 'get'>
/** The commerce contract's SubscriptionView (amount in minor units, times ISO 8601 UTC). */
export type SubscriptionView = NonNullable<Answer['subscription']>

export const SUBSCRIPTION_KEY = ['billing', 'subscription'] as const

/** The caller's subscription, or null when there is none (a 404 counts as none too). */
export async function getSubscription(signal?: AbortSignal): Promise<SubscriptionView | null> {
  try {
    const data = await unwrap(client.GET('/api/v1/payment/subscription', { signal }))
    return data?.subscription ?? null
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null
    throw err
  }
}

export const subscriptionQueryOptions = (userEmail: string) =>
  queryOptions({
    queryKey: [...SUBSCRIPTION_KEY, userEmail],
    queryFn: ({ signal }) => getSubscription(signal),
  })

export function useSubscription(userEmail: string) {
  return useQuery(subscriptionQueryOptions(userEmail))
}
