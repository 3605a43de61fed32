import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'jotai'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { stepsFlowAtom } from '@/features/create/store'
import { resetCreateFlow as resetFlow } from '@/stores/flowReset'
import { appStore } from '@/stores/appStore'
import { SampleList } from './SampleList'
import { json } from '@/testing/http'

const SAMPLES = [
  { _id: 'sample-people-01008_00', name: 'Mesh top, leopard skirt', key: 'catalog/sample/a.jpg', url: 'http://s3/a', thumbnailUrl: 'http://s3/a-thumb' },
  { _id: 'sample-garments-00151_00', name: 'Striped long-sleeve top', key: 'catalog/sample/b.jpg', url: 'http://s3/b', thumbnailUrl: 'http://s3/b-thumb' },
]

describe('SampleList', () => {
  beforeEach(() => {
    resetFlow()
    vi.stubGlobal(
      'fetch',
      vi.fn(async (raw: string) =>
        new URL(raw, 'http://app.test').pathname === '/api/v1/sample'
          ? json(200, { data: { items: SAMPLES } })
          : new URL(raw, 'http://app.test').pathname === '/imageedit/users/guestlogin'
            ? json(200, { data: { token: 'guest', credits: 5 } })
            : json(404, { message: 'Not found.' }),
      ),
    )
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
    resetFlow()
  })

  it('labels each sample with what it shows, and adds it under that name', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <QueryClientProvider client={client}>
        <Provider store={appStore}>
          <SampleList />
        </Provider>
      </QueryClientProvider>,
    )
    await waitFor(() => expect(screen.getAllByTestId('sample-label')).toHaveLength(2))
    expect(screen.getAllByTestId('sample-label').map((l) => l.textContent)).toEqual(['Mesh top, leopard skirt', 'Striped long-sleeve top'])
    const striped = screen.getByRole('button', { name: 'Use the sample: Striped long-sleeve top' })
    await userEvent.click(striped)
    const files = appStore.get(stepsFlowAtom).stepUploadImages.files
    expect(files.map((f) => [f.name, f.serverId])).toEqual([['Striped long-sleeve top', 'sample-garments-00151_00']])
    expect(screen.getByRole('button', { name: 'Striped long-sleeve top: added' })).toHaveProperty('disabled', true)
  })
})
