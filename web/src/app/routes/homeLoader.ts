import { showcaseQueryOptions, type ShowcasePage, type ShowcaseQuery } from '@/features/showcase/api/getShowcase'
import { queryClient } from '@/lib/queryClient'
import { clearFlowOnStart } from './guards'

/** The landing page's lead pair: the first model swap of the showcase (HomePage). */
export const LEAD_SWAP_QUERY: ShowcaseQuery = { serviceType: 'bodySwap', pageNum: 1, pageSize: 1 }

/** Where the server writes the lead pair into index.html for / (api/routers/page_head.py). */
export const LEAD_PAIR_ELEMENT_ID = 'lead-pair'

/**
 * The lead pair the server wrote into the page, taken once: a later visit to / within the app
 * asks the API as usual. Undefined when there is none (another first page, an old server).
 */
function takeInlineLeadPair(): ShowcasePage | undefined {
  const element = document.getElementById(LEAD_PAIR_ELEMENT_ID)
  if (!element) return undefined
  element.remove()
  try {
    return JSON.parse(element.textContent ?? '') as ShowcasePage
  } catch {
    return undefined
  }
}

/**
 * Loader for `/`: clears the saved flow, and has the lead pair ready before the first render,
 * so the page's largest image (its LCP) is shown as soon as the app is: on a first visit the
 * server sent the pair inside index.html, with a preload of its photo that the browser fetched
 * while the scripts loaded (on a phone the showcase call after the scripts was ~0.3 s of the
 * LCP, issue 39); otherwise it is asked for as the router starts. Not awaited: the page renders
 * at once, and its query takes the answer.
 */
export function homeLoader() {
  clearFlowOnStart()
  const inline = takeInlineLeadPair()
  const lead = showcaseQueryOptions(LEAD_SWAP_QUERY)
  if (inline) queryClient.setQueryData(lead.queryKey, inline)
  else void queryClient.prefetchQuery(lead)
  return null
}
