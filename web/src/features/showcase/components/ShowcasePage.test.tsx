import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api'
import { useShowcase, type ShowcasePage as Page, type ShowcaseQuery } from '../api/getShowcase'
import { ShowcasePage } from './ShowcasePage'

vi.mock('../api/getShowcase', () => ({ useShowcase: vi.fn() }))
const mockedUseShowcase = vi.mocked(useShowcase)

function page(count: number, total: number, pageNum = 1, kind: 'bodySwap' | 'burstreplace' = 'bodySwap'): Page {
  return {
    total,
    pageNum,
    pageSize: 12,
    items: Array.from({ length: count }, (_, i) => ({
      taskId: `${kind}-${pageNum}-${i}`,
      service: kind,
      inputUrl: `https://s3/in-${i}.jpg`,
      inputThumbnailUrl: `https://s3/in-${i}-thumb.jpg`,
      outputUrl: `https://s3/out-${i}.png`,
      outputThumbnailUrl: `https://s3/out-${i}-thumb.jpg`,
      showcased: true,
    })),
  }
}

type Result = ReturnType<typeof useShowcase>
function answer(partial: Partial<Result>): Result {
  return {
    data: undefined,
    error: null,
    isPending: false,
    isError: false,
    isFetching: false,
    isPlaceholderData: false,
    refetch: vi.fn(),
    ...partial,
  } as unknown as Result
}

function Location() {
  return <output data-testid="location">{useLocation().search}</output>
}
const lastSearch = () => screen.getByTestId('location').textContent

function renderAt(url: string) {
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route
          path="/showcase"
          element={
            <>
              <ShowcasePage />
              <Location />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  )
}

const lastQuery = (): ShowcaseQuery => mockedUseShowcase.mock.calls.at(-1)![0]

describe('ShowcasePage', () => {
  beforeEach(() => {
    mockedUseShowcase.mockImplementation((q) =>
      answer({ data: page(q.pageNum < 3 ? 12 : 6, 30, q.pageNum, q.serviceType) }),
    )
  })

  afterEach(() => cleanup())

  it('asks for the first model-swap page and shows each pair before/after', () => {
    renderAt('/showcase')
    expect(lastQuery()).toEqual({ serviceType: 'bodySwap', pageNum: 1, pageSize: 12 })
    const items = screen.getAllByTestId('showcase-item')
    expect(items).toHaveLength(12)
    const imgs = items[0]!.querySelectorAll('img')
    expect(imgs[0]!.getAttribute('src')).toBe('https://s3/in-0-thumb.jpg')
    expect(imgs[1]!.getAttribute('src')).toBe('https://s3/out-0-thumb.jpg')
    expect(screen.getByTestId('showcase-page').textContent).toContain('Page 1 of 3')
    expect((screen.getByTestId('showcase-prev') as HTMLButtonElement).disabled).toBe(true)
    expect(screen.getByTestId('showcase-service-bodySwap').getAttribute('aria-pressed')).toBe('true')
    expect(screen.getAllByTestId('showcase-try')[0]!.getAttribute('href')).toBe('/upload-images')
  })

  it("fetches the first pair's images at once and first, the others lazily (its LCP on a phone, issue 39)", () => {
    renderAt('/showcase')
    const items = screen.getAllByTestId('showcase-item')
    for (const img of items[0]!.querySelectorAll('img')) {
      expect(img.getAttribute('loading')).toBe('eager')
      expect(img.getAttribute('fetchpriority')).toBe('high')
    }
    for (const img of items[1]!.querySelectorAll('img')) {
      expect(img.getAttribute('loading')).toBe('lazy')
      expect(img.getAttribute('fetchpriority')).toBeNull()
    }
  })

  it('pages forward and back through the URL', async () => {
    renderAt('/showcase')
    await userEvent.click(screen.getByTestId('showcase-next'))
    expect(lastQuery()).toEqual({ serviceType: 'bodySwap', pageNum: 2, pageSize: 12 })
    expect(lastSearch()).toBe('?page=2')
    await userEvent.click(screen.getByTestId('showcase-next'))
    expect(lastQuery().pageNum).toBe(3)
    expect(screen.getAllByTestId('showcase-item')).toHaveLength(6)
    expect((screen.getByTestId('showcase-next') as HTMLButtonElement).disabled).toBe(true)
    await userEvent.click(screen.getByTestId('showcase-prev'))
    expect(lastQuery().pageNum).toBe(2)
  })

  it('switches the kind and starts again at page 1', async () => {
    renderAt('/showcase?page=2')
    expect(lastQuery().pageNum).toBe(2)
    await userEvent.click(screen.getByTestId('showcase-service-burstreplace'))
    expect(lastQuery()).toEqual({ serviceType: 'burstreplace', pageNum: 1, pageSize: 12 })
    expect(lastSearch()).toBe('?service=burstreplace')
    expect(screen.getByTestId('showcase-service-burstreplace').getAttribute('aria-pressed')).toBe('true')
    expect(screen.getAllByTestId('showcase-item')[0]!.textContent).toContain('Background')
  })

  it('shows the empty state with "Try it"', () => {
    mockedUseShowcase.mockImplementation(() => answer({ data: page(0, 0) }))
    renderAt('/showcase?service=burstreplace')
    expect(screen.getByTestId('showcase-empty').textContent).toContain('No background examples yet.')
    expect(screen.queryByTestId('showcase-next')).toBeNull()
    expect(screen.getAllByTestId('showcase-try')).toHaveLength(2)
  })

  it("shows the server's message when the page cannot be loaded", () => {
    mockedUseShowcase.mockImplementation(() =>
      answer({ isError: true, error: new ApiError(503, 'Storage is not reachable.', 'Storage is not reachable.') }),
    )
    renderAt('/showcase')
    expect(screen.getByTestId('showcase-error').textContent).toContain('Storage is not reachable.')
  })

  it('hides the pager when everything fits on one page', () => {
    mockedUseShowcase.mockImplementation(() => answer({ data: page(3, 3) }))
    renderAt('/showcase')
    expect(screen.getAllByTestId('showcase-item')).toHaveLength(3)
    expect(screen.queryByTestId('showcase-page')).toBeNull()
  })
})
