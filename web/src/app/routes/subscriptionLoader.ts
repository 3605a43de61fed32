import { pricingQueryOptions } from '@/features/pricing/api/getPricing'
import { queryClient } from '@/lib/queryClient'

/**
 * Loader for /subscription: asks for the plans as the router starts, beside the page's own
 * code, rather than after it (the page's first render asked, and before that a guest login, on
 * a phone about a second before the plans could show, issue 39). Not awaited: the page renders
 * at once, and its query (the server's choice of currency) takes the answer.
 */
export function subscriptionLoader() {
  void queryClient.prefetchQuery(pricingQueryOptions(null))
  return null
}
