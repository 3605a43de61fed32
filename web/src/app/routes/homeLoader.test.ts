import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import type { ShowcasePage } from '@/features/showcase/api/getShowcase'
import { stubShowcase } from '@/features/showcase/testing'
import { queryClient } from '@/lib/queryClient'
import { homeLoader, LEAD_PAIR_ELEMENT_ID, LEAD_SWAP_QUERY } from './homeLoader'

let mockedGetShowcase: ReturnType<typeof stubShowcase>

beforeEach(() => {
  mockedGetShowcase = stubShowcase()
})

afterEach(() => {
  queryClient.clear()
  vi.unstubAllGlobals()
})

it("asks for the landing page's lead pair as the router starts, without waiting for it (issue 39)", async () => {
  let answer: (page: ShowcasePage) => void = () => {}
  mockedGetShowcase.mockImplementation(() => new Promise((resolve) => (answer = resolve)))
  // Returns at once: the page renders while the showcase answers (the request itself leaves
  // after the client's middleware has run).
  expect(homeLoader()).toBeNull()
  await vi.waitFor(() => expect(mockedGetShowcase).toHaveBeenCalledTimes(1))
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

const PAIR: ShowcasePage = {
  items: [
    {
      taskId: 't1',
      service: 'bodySwap',
      inputUrl: 'http://storage/in.jpg?a=1&b=2',
      inputThumbnailUrl: 'http://storage/in-thumb.jpg',
      outputUrl: 'http://storage/out.jpg',
      outputThumbnailUrl: 'http://storage/out-thumb.jpg',
      showcased: true,
    },
  ],
  total: 3,
  pageNum: 1,
  pageSize: 1,
}

function writeInlinePair(text: string): void {
  const script = document.createElement('script')
  script.id = LEAD_PAIR_ELEMENT_ID
  script.type = 'application/json'
  script.textContent = text
  document.head.append(script)
}

it('takes the lead pair the server wrote into index.html, once, without asking the API (issue 39)', async () => {
  writeInlinePair(JSON.stringify(PAIR))
  expect(homeLoader()).toBeNull()
  expect(queryClient.getQueryData(['showcase', 'bodySwap', 1, 1])).toEqual(PAIR)
  expect(document.getElementById(LEAD_PAIR_ELEMENT_ID)).toBeNull()
  expect(mockedGetShowcase).not.toHaveBeenCalled()

  // A later visit to / within the app asks as usual.
  queryClient.clear()
  mockedGetShowcase.mockResolvedValue(PAIR)
  homeLoader()
  await vi.waitFor(() => expect(mockedGetShowcase).toHaveBeenCalledTimes(1))
})

it('asks the API when what the server wrote cannot be read', async () => {
  writeInlinePair('{"items": [')
  mockedGetShowcase.mockResolvedValue(PAIR)
  expect(homeLoader()).toBeNull()
  expect(document.getElementById(LEAD_PAIR_ELEMENT_ID)).toBeNull()
  await vi.waitFor(() => expect(queryClient.getQueryData(['showcase', 'bodySwap', 1, 1])).toEqual(PAIR))
  expect(mockedGetShowcase).toHaveBeenCalledTimes(1)
})
