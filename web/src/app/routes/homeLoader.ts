import { showcaseQueryOptions, type ShowcaseQuery } from '@/features/showcase/api/getShowcase'
import { queryClient } from '@/lib/queryClient'
import { clearFlowOnStart } from './guards'

/** The landing page's lead pair: the first model swap of the showcase (HomePage). */
export const LEAD_SWAP_QUERY: ShowcaseQuery = { serviceType: 'bodySwap', pageNum: 1, pageSize: 1 }

/**
 * Loader for `/`: clears the saved flow, and asks for the lead pair as the router starts,
 * before the first render, so the page's largest image (its LCP) is requested sooner: asked
 * from the page's own query, it waited for the whole app to render first, about 0.2 s on a
 * phone (issue 39). Not awaited: the page renders at once, and its query takes the answer.
 */
export function homeLoader() {
  clearFlowOnStart()
  void queryClient.prefetchQuery(showcaseQueryOptions(LEAD_SWAP_QUERY))
  return null
}
