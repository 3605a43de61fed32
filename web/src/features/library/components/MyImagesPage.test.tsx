import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'jotai'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appStore } from '@/stores/appStore'
import { authStateAtom, initialAuthState } from '@/stores/auth'
import type { Generation } from '@/types/api'
import { MyImagesPage } from './MyImagesPage'
import { json } from '@/testing/http'
import { completedImage } from '@/testing/fixtures'


const generation: Generation = {
  serviceId: 'svc-1',
  service: 'bodySwap',
  status: 'completed',
  credits: 3,
  modelId: 'm-1',
  backgroundId: null,
  error: '1 of 3 images could not be created.',
  createdAt: '2026-11-24T04:00:00+00:00',
  completedAt: '2026-11-24T04:00:05+00:00',
  tasks: [
    completedImage('t-1'),
    completedImage('t-2', { status: 'failed', stage: 'failed', outputs: [], error: 'No person found in the photo.' }),
    completedImage('t-3'),
  ],
}

beforeEach(() => {
  const user = { userEmail: 'ada@example.com', userToken: 'token', userName: 'Ada', userId: 'u-1' }
  localStorage.setItem('mm:user', JSON.stringify(user))
  localStorage.setItem('mm:token', user.userToken)
  appStore.set(authStateAtom, { ...initialAuthState, isAuthenticated: true, user })
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url.startsWith('/imageedit/service/all')
        ? json(200, { data: { items: [generation], total: 1, pageNumber: 1, pageSize: 90 } })
        : json(404, { message: `no route for ${url}` }),
    ),
  )
})

afterEach(() => {
  cleanup()
  appStore.set(authStateAtom, initialAuthState)
  vi.unstubAllGlobals()
  localStorage.clear()
})

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <Provider store={appStore}>
        <MemoryRouter initialEntries={['/my-images']}>
          <MyImagesPage />
        </MemoryRouter>
      </Provider>
    </QueryClientProvider>,
  )
}

describe('My Images with a failed image', () => {
  it('opens an image in the viewer, which walks the finished images of the page', async () => {
    renderPage()
    const tiles = await screen.findAllByTestId('library-image')
    await userEvent.click(within(tiles[2]!).getByTestId('library-open'))
    const viewer = screen.getByTestId('image-viewer')
    // The failed image is not in the viewer's list.
    expect(within(viewer).getByTestId('viewer-counter').textContent).toBe('2 of 2')
    expect(within(viewer).getByTestId('viewer-image').getAttribute('src')).toBe('http://s3/o/t-3')
    await userEvent.keyboard('{ArrowLeft}')
    expect(within(viewer).getByTestId('viewer-counter').textContent).toBe('1 of 2')
    expect(within(viewer).getByTestId('viewer-image').getAttribute('src')).toBe('http://s3/o/t-1')
    await userEvent.keyboard('c')
    expect(within(viewer).getByTestId('viewer-compare-image-before').getAttribute('src')).toBe('http://s3/in/t-1')
    expect(within(viewer).getByTestId('viewer-compare-image-after').getAttribute('src')).toBe('http://s3/o/t-1')
    expect(within(viewer).getByRole('button', { name: 'Download original' })).toBeTruthy()
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByTestId('image-viewer')).toBeNull()
  })

  it('shows the failed tile in its place with its input, its reason and its credit back', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <QueryClientProvider client={client}>
        <Provider store={appStore}>
          <MemoryRouter initialEntries={['/my-images']}>
            <MyImagesPage />
          </MemoryRouter>
        </Provider>
      </QueryClientProvider>,
    )

    const tiles = await screen.findAllByTestId('library-image')
    expect(tiles.map((t) => t.dataset.status)).toEqual(['completed', 'failed', 'completed'])
    const tile = tiles[1]!
    expect(within(tile).getByAltText('Input of image 2').getAttribute('src')).toBe('http://s3/in/t-2')
    // The image's own reason, not the generation's summary.
    expect(within(tile).getByTestId('library-failure').textContent).toBe('No person found in the photo.')
    expect(within(tile).getByTestId('library-failure-credits').textContent).toBe('Its 1 credit was returned to your balance.')
    expect(screen.getAllByTestId('library-failure')).toHaveLength(1)
  })
})

describe('Deleting from My Images', () => {
  function calls(): Array<[string, string]> {
    const fetchMock = vi.mocked(fetch)
    return fetchMock.mock.calls.map(([url, init]) => [String(init?.method ?? 'GET'), String(url)])
  }

  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url.startsWith('/imageedit/service/all')) return json(200, { data: { items: [generation], total: 1, pageNumber: 1, pageSize: 90 } })
        if (init?.method === 'DELETE' && url === '/imageedit/service/svc-1/task/t-2')
          return json(200, { data: { serviceId: 'svc-1', taskId: 't-2', removedObjects: 2, generationDeleted: false } })
        if (init?.method === 'DELETE' && url === '/imageedit/service/svc-1') return json(200, { data: { serviceId: 'svc-1', removedObjects: 9 } })
        return json(404, { message: `no route for ${url}` })
      }),
    )
  })

  it('the trash icon on the failed image deletes that image only', async () => {
    renderPage()
    const tiles = await screen.findAllByTestId('library-image')
    await userEvent.click(within(tiles[1]!).getByRole('button', { name: 'Delete image 2' }))
    const dialog = screen.getByTestId('delete-dialog')
    expect(within(dialog).getByRole('heading').textContent).toBe('Delete image 2?')
    expect(within(dialog).getByTestId('delete-dialog-text').textContent).toContain('the other 2 images of this generation stay')
    await userEvent.click(within(dialog).getByTestId('delete-confirm'))
    await vi.waitFor(() => expect(screen.queryByTestId('delete-dialog')).toBeNull())
    const deletes = calls().filter(([method]) => method === 'DELETE')
    expect(deletes).toEqual([['DELETE', '/imageedit/service/svc-1/task/t-2']])
  })

  it('deleting the whole generation is a second, named step', async () => {
    renderPage()
    const tiles = await screen.findAllByTestId('library-image')
    await userEvent.click(within(tiles[0]!).getByRole('button', { name: 'Delete image 1' }))
    await userEvent.click(screen.getByRole('button', { name: 'Delete the whole generation (3 images) instead…' }))
    const dialog = screen.getByTestId('delete-dialog')
    expect(within(dialog).getByRole('heading').textContent).toBe('Delete the whole generation?')
    expect(calls().some(([method]) => method === 'DELETE')).toBe(false)
    // Back leaves it at the one image.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Back' }))
    expect(within(dialog).getByRole('heading').textContent).toBe('Delete image 1?')
    await userEvent.click(screen.getByTestId('delete-whole-generation'))
    await userEvent.click(screen.getByRole('button', { name: 'Delete 3 images' }))
    await vi.waitFor(() => expect(screen.queryByTestId('delete-dialog')).toBeNull())
    expect(calls().filter(([method]) => method === 'DELETE')).toEqual([['DELETE', '/imageedit/service/svc-1']])
  })
})
