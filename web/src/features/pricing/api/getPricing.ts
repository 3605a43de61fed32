import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData, ApiQuery } from '@/types/api'
import { browserTimeZone, type Currency } from '../pricing'

type Path = '/api/v1/pricing'
/** The catalogue the pages sell (spec §7: planVersion=2). */
export const PLAN_VERSION = 2

export type Pricing = ApiData<Path, 'get'>

/**
 * The plans of the current catalogue. Without a currency the server picks one: INR for
 * visitors from India, told by the browser's time zone (x-timezone) or its language.
 */
export function getPricing(currency: Currency | null, signal?: AbortSignal): Promise<Pricing> {
  const query: ApiQuery<Path, 'get'> = { planVersion: PLAN_VERSION, ...(currency ? { currency } : {}) }
  // x-timezone (the browser's time zone) lets the server pick INR for visitors from India.
  const timeZone = browserTimeZone()
  const headers = timeZone ? { 'x-timezone': timeZone } : undefined
  return unwrap(client.GET('/api/v1/pricing', { params: { query }, signal, headers }))
}

export const pricingQueryOptions = (currency: Currency | null) =>
  queryOptions({
    queryKey: ['pricing', PLAN_VERSION, currency ?? 'auto'],
    queryFn: async ({ signal }) => {
      try {
        return await getPricing(currency, signal)
      } catch (err) {
        // Spec §8: a pricing load failure is only logged, never shown as an error.
        console.warn('Could not load pricing:', err)
        throw err
      }
    },
    staleTime: 5 * 60_000,
  })

/** `currency` null: the server's choice for this visitor. Switching keeps the last plans shown. */
export function usePricing(currency: Currency | null) {
  return useQuery({ ...pricingQueryOptions(currency), placeholderData: keepPreviousData })
}
