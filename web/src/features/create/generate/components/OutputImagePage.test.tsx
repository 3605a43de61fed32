import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'jotai'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mergeFlowAtom, resetFlowAtom } from '@/features/create/store'
import { appStore } from '@/stores/appStore'
import type { ContentCredentials, Generation, GenerationImage } from '@/types/api'
import { useGeneration } from '../api/getGeneration'
import { OutputImagePage } from './OutputImagePage'
import { completedImage } from '@/testing/fixtures'

vi.mock('../api/getGeneration', () => ({ useGeneration: vi.fn() }))
const mockedUseGeneration = vi.mocked(useGeneration)


const served: Generation = {
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
    completedImage('t-1', { edited: { key: 'outputs/t-1-edited.jpg', url: 'http://s3/e/t-1', thumbnailUrl: 'http://s3/et/t-1' } }),
    completedImage('t-2'),
  ],
}

const credentials = (action: string, extra: Partial<ContentCredentials> = {}): ContentCredentials => ({
  aiGenerated: true,
  action,
  digitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
  claimGenerator: 'MetaModel 0.1.0',
  engine: 'cpu 0.1.0',
  generationId: 'svc-1',
  taskId: 't-1',
  testMode: false,
  signer: 'MetaModel signer',
  issuer: 'MetaModel development (untrusted)',
  signedAt: '2026-11-24T04:00:05Z',
  manifestLabel: 'urn:c2pa:1',
  ingredients: [
    { kind: 'photo', title: 'Uploaded photo', identifier: `sha256:${'a'.repeat(64)}`, relationship: 'inputTo' },
    { kind: 'model', title: 'Digital model', identifier: 'catalog:m-1', relationship: 'inputTo' },
  ],
  sha256: 'b'.repeat(64),
  ...extra,
})

function renderPage(generation: Generation) {
  mockedUseGeneration.mockReturnValue({ data: generation, isPending: false, error: null, refetch: vi.fn() } as unknown as ReturnType<typeof useGeneration>)
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Provider store={appStore}>
        <MemoryRouter initialEntries={['/output-image?serviceId=svc-1']}>
          <OutputImagePage />
        </MemoryRouter>
      </Provider>
    </QueryClientProvider>,
  )
}

afterEach(() => {
  cleanup()
  appStore.set(resetFlowAtom)
})

describe('OutputImagePage', () => {
  it('shows each signed image’s Content Credentials on its tile and in the viewer, per version', async () => {
    // This tab chose the model: its name stands for the catalog id.
    appStore.set(mergeFlowAtom, {
      stepSelectModel: { selectedModel: { _id: 'm-1', name: 'Ava', category: 'studio', url: 'http://s3/m', thumbnailUrl: 'http://s3/mt' } },
    })
    const [first, second] = served.tasks as [GenerationImage, GenerationImage]
    renderPage({
      ...served,
      tasks: [
        {
          ...first,
          contentCredentials: credentials('c2pa.created'),
          editedCredentials: credentials('c2pa.edited', { ingredients: [] }),
        },
        { ...second, contentCredentials: null },
      ],
    })
    const tiles = screen.getAllByTestId('output-item')
    expect(within(tiles[0]!).getByTestId('content-credentials').textContent).toContain(
      'Content Credentials: AI-generated with MetaModel',
    )
    // An image made before signing shows nothing.
    expect(within(tiles[1]!).queryByTestId('content-credentials')).toBeNull()
    expect(within(screen.getByTestId('edited-item')).getByTestId('content-credentials')).toBeTruthy()

    await userEvent.click(screen.getByRole('button', { name: 'Open generated image 1 full size' }))
    const viewer = screen.getByTestId('output-viewer')
    await userEvent.click(within(viewer).getByRole('button', { name: /Content Credentials: AI-generated with MetaModel/ }))
    expect(within(viewer).getByTestId('credentials-action').textContent).toBe('Created with a trained AI model')
    expect(within(viewer).getByTestId('credentials-ingredients').textContent).toContain('Digital model: Ava')
    expect(within(viewer).getByTestId('credentials-development')).toBeTruthy()
    // The edited version has credentials of its own.
    await userEvent.keyboard('{ArrowRight}')
    await userEvent.click(within(viewer).getByRole('button', { name: /Content Credentials/ }))
    expect(within(viewer).getByTestId('credentials-action').textContent).toBe('Edited: composite with AI-generated content')
    await userEvent.keyboard('{ArrowRight}')
    expect(within(viewer).queryByTestId('content-credentials')).toBeNull()
  })

  it('opens every image in the large viewer, which walks the page and compares with the input', async () => {
    mockedUseGeneration.mockReturnValue({ data: served, isPending: false, error: null, refetch: vi.fn() } as unknown as ReturnType<typeof useGeneration>)
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
