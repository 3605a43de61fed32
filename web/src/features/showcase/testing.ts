// Test helper of the showcase (not shipped: only *.test.* files import this).
import { vi } from 'vitest'
import type { ShowcasePage, ShowcaseQuery } from './api/getShowcase'

/**
 * Stubs fetch so that the showcase call (GET /imageedit/service/showCaseFromS3, through the real
 * API client) answers what the returned mock gives for the query sent, read back from the URL;
 * a rejection is a network failure. Any other call fails the test. Undo with vi.unstubAllGlobals.
 */
export function stubShowcase() {
  const answer = vi.fn<(query: ShowcaseQuery) => Promise<ShowcasePage>>()
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://app.test')
    if (url.pathname !== '/imageedit/service/showCaseFromS3') throw new Error(`Unexpected call: ${url.pathname}`)
    const params = url.searchParams
    const query = {
      serviceType: params.get('serviceType') as ShowcaseQuery['serviceType'],
      pageNum: Number(params.get('pageNum')),
      pageSize: Number(params.get('pageSize')),
    }
    const page = await answer(query)
    return new Response(JSON.stringify({ data: page }), { status: 200, headers: { 'Content-Type': 'application/json' } })
  })
  return answer
}
