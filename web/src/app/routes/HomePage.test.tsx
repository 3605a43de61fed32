import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, within } from '@testing-library/react'
import { Provider } from 'jotai'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appStore } from '@/stores/appStore'
import { authStateAtom, initialAuthState } from '@/stores/auth'
import type { ShowcasePage } from '@/features/showcase/api/getShowcase'
import { stubShowcase } from '@/features/showcase/testing'
import { HomePage } from './HomePage'

let mockedGetShowcase: ReturnType<typeof stubShowcase>

const NOTE = 'No account needed to try it: guests get free credits.'

function page(kind: 'bodySwap' | 'burstreplace', count: number): ShowcasePage {
  return {
    total: count,
    pageNum: 1,
    pageSize: 1,
    items: Array.from({ length: count }, (_, i) => ({
      taskId: `${kind}-${i}`,
      service: kind,
      inputUrl: `https://s3/${kind}-in-${i}.jpg`,
      inputThumbnailUrl: `https://s3/${kind}-in-${i}-thumb.jpg`,
      outputUrl: `https://s3/${kind}-out-${i}.png`,
      outputThumbnailUrl: `https://s3/${kind}-out-${i}-thumb.jpg`,
      showcased: true,
    })),
  }
}

function renderHome() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <Provider store={appStore}>
        <MemoryRouter initialEntries={['/']}>
          <HomePage />
        </MemoryRouter>
      </Provider>
    </QueryClientProvider>,
  )
}

function signIn() {
  const user = { userEmail: 'ada@example.com', userToken: 'token', userName: 'Ada', userId: 'u-1' }
  appStore.set(authStateAtom, { ...initialAuthState, isAuthenticated: true, user })
}

beforeEach(() => {
  mockedGetShowcase = stubShowcase()
  mockedGetShowcase.mockImplementation(async (query) => page(query.serviceType ?? 'bodySwap', query.serviceType === 'bodySwap' ? 1 : 0))
})

afterEach(() => {
  cleanup()
  appStore.set(authStateAtom, initialAuthState)
  vi.unstubAllGlobals()
})

describe('HomePage', () => {
  it('leads with a showcase pair in a before/after slider, and tells a guest about free credits', async () => {
    renderHome()
    const frame = await screen.findByTestId('home-compare')
    expect(within(frame).getByAltText('Before: the garment on a digital model').getAttribute('src')).toBe('https://s3/bodySwap-in-0.jpg')
    expect(within(frame).getByAltText('After: the garment on a digital model').getAttribute('src')).toBe('https://s3/bodySwap-out-0.png')
    expect(within(frame).getByRole('slider', { name: /Compare before and after/ })).toBeTruthy()
    // The page's largest image: fetched at once and ahead of the rest (issue 39).
    for (const img of within(frame).getAllByRole('img')) {
      expect(img.getAttribute('loading')).toBe('eager')
      expect(img.getAttribute('fetchpriority')).toBe('high')
    }
    expect(screen.getByTestId('home-create').getAttribute('href')).toBe('/upload-images')
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('On-model photos of your collection')
    expect(screen.getByText(NOTE)).toBeTruthy()
    expect(mockedGetShowcase.mock.calls[0]![0]).toMatchObject({ serviceType: 'bodySwap', pageNum: 1 })
  })

  it("keeps the caption's line while the pair loads and without one, so the text below stays put (issue 39)", async () => {
    mockedGetShowcase.mockImplementation(() => new Promise(() => {}))
    renderHome()
    const figure = screen.getByTestId('home-showcase')
    expect(screen.getByTestId('home-showcase-loading')).toBeTruthy()
    const [, loadingCaption] = [...figure.children]
    expect(figure.children).toHaveLength(2)
    expect(loadingCaption!.tagName).toBe('P')
    expect(loadingCaption!.getAttribute('aria-hidden')).toBe('true')
    cleanup()

    mockedGetShowcase.mockImplementation(async (query) => page(query.serviceType ?? 'bodySwap', 0))
    renderHome()
    await screen.findByTestId('home-showcase-fallback')
    const empty = screen.getByTestId('home-showcase')
    expect(empty.children).toHaveLength(2)
    expect(empty.lastElementChild!.className).toBe(loadingCaption!.className)
  })

  it('does not tell a signed-in user that no account is needed', async () => {
    signIn()
    renderHome()
    await screen.findByTestId('home-compare')
    expect(screen.queryByText(NOTE)).toBeNull()
    expect(screen.queryByTestId('home-guest-note')).toBeNull()
    expect(screen.getByTestId('home-create')).toBeTruthy()
  })

  it('falls back to a background pair when there is no model swap', async () => {
    mockedGetShowcase.mockImplementation(async (query) => page(query.serviceType ?? 'bodySwap', query.serviceType === 'burstreplace' ? 1 : 0))
    renderHome()
    const frame = await screen.findByTestId('home-compare')
    expect(within(frame).getByAltText('After: the garment on a new background').getAttribute('src')).toBe('https://s3/burstreplace-out-0.png')
  })

  it('shows a fallback without images when the showcase is empty or unreachable', async () => {
    mockedGetShowcase.mockImplementation(async (query) => page(query.serviceType ?? 'bodySwap', 0))
    renderHome()
    const fallback = await screen.findByTestId('home-showcase-fallback')
    expect(fallback.querySelectorAll('img')).toHaveLength(0)
    expect(screen.queryByTestId('home-compare')).toBeNull()
    cleanup()

    mockedGetShowcase.mockImplementation(async () => {
      throw new Error('Storage is not reachable.')
    })
    renderHome()
    expect(await screen.findByTestId('home-showcase-fallback')).toBeTruthy()
  })
})
