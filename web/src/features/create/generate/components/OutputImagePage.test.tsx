import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'jotai'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appStore } from '@/stores/appStore'
import type { Generation, Task } from '@/types/api'
import { useService } from '../api/getService'
import { OutputImagePage } from './OutputImagePage'

vi.mock('../api/getService', () => ({ useService: vi.fn() }))
const mockedUseService = vi.mocked(useService)

const task = (taskId: string, extra: Partial<Task> = {}): Task => ({
  taskId,
  status: 'completed',
  stage: 'completed',
  progress: 100,
  inputKey: `uploads/a/${taskId}.jpg`,
  inputThumbnailUrl: `http://s3/in/${taskId}`,
  outputs: [{ key: `outputs/${taskId}.jpg`, url: `http://s3/o/${taskId}`, thumbnailUrl: `http://s3/ot/${taskId}` }],
  error: null,
  shared: false,
  comment: '',
  ...extra,
})

const service: Generation = {
  serviceId: 'svc-1',
  service: 'bodySwap',
  status: 'completed',
  credits: 2,
  modelId: 'm-1',
  backgroundId: null,
  error: null,
  createdAt: '2026-11-24T04:00:00+00:00',
  completedAt: '2026-11-24T04:00:05+00:00',
  tasks: [
    task('t-1', { edited: { key: 'outputs/t-1-edited.jpg', url: 'http://s3/e/t-1', thumbnailUrl: 'http://s3/et/t-1' } }),
    task('t-2'),
  ],
}

afterEach(() => cleanup())

describe('OutputImagePage', () => {
  it('opens every image in the large viewer, which walks the page and compares with the input', async () => {
    mockedUseService.mockReturnValue({ data: service, isPending: false, error: null, refetch: vi.fn() } as unknown as ReturnType<typeof useService>)
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Provider store={appStore}>
          <MemoryRouter initialEntries={['/output-image?serviceId=svc-1']}>
            <OutputImagePage />
          </MemoryRouter>
        </Provider>
      </QueryClientProvider>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Open generated image 1 full size' }))
    const viewer = screen.getByTestId('output-viewer')
    // Image 1, its edited version, image 2.
    expect(within(viewer).getByTestId('viewer-counter').textContent).toBe('1 of 3')
    expect(within(viewer).getByTestId('viewer-image').getAttribute('src')).toBe('http://s3/o/t-1')
    await userEvent.keyboard('{ArrowRight}')
    expect(within(viewer).getByTestId('viewer-image').getAttribute('src')).toBe('http://s3/e/t-1')
    expect(within(viewer).getByRole('button', { name: 'Download the edited image 1' })).toBeTruthy()
    await userEvent.keyboard('{ArrowRight}c')
    expect(within(viewer).getByTestId('viewer-counter').textContent).toBe('3 of 3')
    expect(within(viewer).getByTestId('viewer-compare-image-before').getAttribute('src')).toBe('http://s3/in/t-2')
    expect(within(viewer).getByTestId('viewer-compare-image-after').getAttribute('src')).toBe('http://s3/o/t-2')
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByTestId('output-viewer')).toBeNull()
  })
})
