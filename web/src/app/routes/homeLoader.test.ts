import { afterEach, expect, it, vi } from 'vitest'
import { getShowcase } from '@/api/public'
import { queryClient } from '@/lib/queryClient'
import { homeLoader, LEAD_SWAP_QUERY } from './homeLoader'

vi.mock('@/api/public', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/api/public')>()),
  getShowcase: vi.fn(),
}))
const mockedGetShowcase = vi.mocked(getShowcase)

afterEach(() => {
  queryClient.clear()
  mockedGetShowcase.mockReset()
})

it("asks for the landing page's lead pair as the router starts, without waiting for it (issue 39)", async () => {
  let answer: (page: Awaited<ReturnType<typeof getShowcase>>) => void = () => {}
  mockedGetShowcase.mockImplementation(() => new Promise((resolve) => (answer = resolve)))
  // Returns at once: the page renders while the showcase answers.
  expect(homeLoader()).toBeNull()
  expect(mockedGetShowcase).toHaveBeenCalledTimes(1)
  expect(mockedGetShowcase.mock.calls[0]![0]).toEqual(LEAD_SWAP_QUERY)
  answer({ items: [], total: 0, pageNum: 1, pageSize: 1 })
  await vi.waitFor(() => expect(queryClient.getQueryData(['showcase', 'bodySwap', 1, 1])).toEqual({ items: [], total: 0, pageNum: 1, pageSize: 1 }))
})

it('keeps the landing page working when the showcase cannot be reached', async () => {
  mockedGetShowcase.mockRejectedValue(new Error('Storage is not reachable.'))
  // No throw and no unhandled rejection: the page's own query shows the fallback (HomePage.test).
  expect(homeLoader()).toBeNull()
  await vi.waitFor(() => expect(mockedGetShowcase).toHaveBeenCalled())
  await queryClient.cancelQueries()
})
