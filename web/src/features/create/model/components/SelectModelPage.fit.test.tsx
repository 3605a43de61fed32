import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, within } from '@testing-library/react'
import { Provider } from 'jotai'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appStore } from '@/stores/appStore'
import { addFilesAtom, mergeFlowAtom, resetFlowAtom, type FlowFile } from '@/features/create/store'
import { SelectModelPage } from './SelectModelPage'

const TONE =
  "We could not swap to this model: their skin tone is too far from the person's in the photo for an even result (a model with a closer skin tone works best)"

const entry = (id: string, name: string) => ({
  _id: id, name, type: 'model', category: 'studio', builtin: false, url: `/m/${id}.jpg`, thumbnailUrl: `/m/${id}-t.jpg`, description: '',
})

const photo: FlowFile = {
  _id: 'f-1', name: 'me.jpg', mimeType: 'image/jpeg', size: 1, source: 'upload', status: 'done', key: 'uploads/me.jpg',
  serverId: 'u-1', url: null, thumbnailUrl: null, width: 1, height: 1, error: null,
  analysis: { kind: 'person', people: 1, view: 'front', face: 'full', garment: null, can: { bodySwap: { ok: true, reason: null }, burstreplace: { ok: true, reason: null } } },
}

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })
}

let fitQueries: URLSearchParams[]
/** Whether the server has measured the models' tones yet (compatible null before). */
let measured: boolean

beforeEach(() => {
  fitQueries = []
  measured = true
  localStorage.setItem('mm:guestToken', 'guest-token')
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const { pathname, searchParams } = new URL(url, 'http://localhost')
      if (pathname === '/api/v1/model') return json({ data: { items: [entry('model-1', 'Mei'), entry('model-4', 'Amara')], total: 2, pageNum: 1, pageSize: 12 } })
      if (pathname === '/api/v1/models') {
        fitQueries.push(searchParams)
        return json({
          data: {
            items: [
              measured
                ? { id: 'model-1', compatible: false, reason: TONE, incompatibleUploads: ['u-1'] }
                : { id: 'model-1', compatible: null, reason: null, incompatibleUploads: [] },
              { id: 'model-4', compatible: measured ? true : null, reason: null, incompatibleUploads: [] },
            ],
            total: 2, pageNum: 1, pageSize: 100,
          },
        })
      }
      if (pathname === '/api/v1/model/categories') return json({ data: { items: [] } })
      if (pathname === '/api/v1/model/filters') return json({ data: { gender: [], skinTone: [], bodyType: [] } })
      return new Response(JSON.stringify({ message: `unexpected ${url}` }), { status: 404 })
    }),
  )
})

afterEach(() => {
  cleanup()
  appStore.set(resetFlowAtom)
  vi.unstubAllGlobals()
  localStorage.clear()
  sessionStorage.clear()
})

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <Provider store={appStore}>
        <MemoryRouter>
          <SelectModelPage />
        </MemoryRouter>
      </Provider>
    </QueryClientProvider>,
  )
}

describe('SelectModelPage and the photos’ fit', () => {
  it('marks the models the photo cannot be swapped to, with the reason, and they cannot be picked', async () => {
    appStore.set(addFilesAtom, [photo])
    renderPage()
    const note = await screen.findByTestId('model-fit-note')
    expect(note.textContent).toContain('1 of these models is not available for your photos')
    expect(note.textContent).toContain('their skin tone is too far')
    expect(fitQueries[0]!.getAll('upload')).toEqual(['uploads/me.jpg'])
    const [mei, amara] = screen.getAllByTestId('model-card')
    expect(mei!.dataset.unavailable).toBe('true')
    expect((mei as HTMLButtonElement).disabled).toBe(true)
    expect(mei!.getAttribute('aria-label')).toContain('Not available: We could not swap to this model')
    expect(within(mei!).getByTestId('choice-unavailable').textContent).toBe('Not available for your photo')
    expect(amara!.dataset.unavailable).toBeUndefined()
    expect((amara as HTMLButtonElement).disabled).toBe(false)
  })

  it('says so when the model already chosen is one of them, and offers to clear it', async () => {
    appStore.set(addFilesAtom, [photo])
    appStore.set(mergeFlowAtom, { stepSelectModel: { selectedModel: { _id: 'model-1', name: 'Mei', category: 'studio', url: '', thumbnailUrl: '' } } })
    renderPage()
    const warning = await screen.findByTestId('model-fit-selected')
    expect(warning.textContent).toContain('Mei is not available for your photos')
    within(warning).getByRole('button', { name: 'Clear the choice' }).click()
    expect(await screen.findByTestId('model-fit-note')).toBeTruthy()
  })

  it('says it is checking while the models are being measured, and asks again', async () => {
    measured = false
    appStore.set(addFilesAtom, [photo])
    renderPage()
    expect(await screen.findByTestId('model-fit-checking')).toBeTruthy()
    measured = true
    expect(await screen.findByTestId('model-fit-note', {}, { timeout: 5000 })).toBeTruthy()
    expect(screen.queryByTestId('model-fit-checking')).toBeNull()
    expect(fitQueries.length).toBeGreaterThan(1)
  })

  it('asks nothing without photos of one’s own: every model is offered', async () => {
    renderPage()
    const cards = await screen.findAllByTestId('model-card')
    expect(cards.every((c) => c.dataset.unavailable === undefined)).toBe(true)
    expect(fitQueries).toEqual([])
  })
})
