import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toast } from '@/lib/toast'
import type { Generation, GenerationImage } from '@/types/api'
import { OutputImagePage } from './OutputImagePage'
import { PlacementEditor } from './PlacementEditor'
import { json } from '@/testing/http'

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn() }) }))

const output = (id: string) => ({ key: `outputs/${id}.jpg`, url: `http://s3/o/${id}`, thumbnailUrl: `http://s3/ot/${id}` })

const image = (taskId: string, extra: Partial<GenerationImage> = {}): GenerationImage => ({
  taskId,
  status: 'completed',
  progress: 100,
  stage: 'completed',
  inputKey: `uploads/a/${taskId}.jpg`,
  inputThumbnailUrl: `http://s3/t/${taskId}`,
  outputs: [output(taskId)],
  error: null,
  edited: null,
  shared: false,
  comment: '',
  ...extra,
})

const generationOf = (images: GenerationImage[], backgroundId: string | null = 'bg-1'): Generation => ({
  serviceId: 'svc-1',
  service: 'burstreplace',
  status: 'completed',
  credits: 1,
  modelId: null,
  backgroundId,
  error: null,
  createdAt: '2026-11-24T04:00:00+00:00',
  completedAt: '2026-11-24T04:00:05+00:00',
  tasks: images,
})

const seeds = { items: [{ _id: 'bg-1', name: 'Street', type: 'background', category: 'city', builtin: false, url: 'http://s3/bg-1', thumbnailUrl: 'http://s3/bg-1-thumb' }], total: 1, pagenum: 1, pagesize: 18 }

type Route = (url: string, init?: RequestInit) => Response | undefined
let fetchMock: ReturnType<typeof vi.fn>
let routes: Route[]

function answer(url: string, init?: RequestInit): Response {
  for (const route of routes) {
    const found = route(url, init)
    if (found) return found
  }
  if (url.startsWith('/imageedit/seed')) return json(200, { data: seeds })
  return json(404, { message: `no route for ${url}` })
}

const posts = () =>
  fetchMock.mock.calls
    .filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST')
    .map(([url, init]) => [url, JSON.parse(String((init as RequestInit).body))] as [string, unknown])

function client() {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
}

beforeEach(() => {
  localStorage.setItem('mm:guestToken', 'guest-token')
  routes = []
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => answer(url, init))
  vi.stubGlobal('fetch', fetchMock)
  // happy-dom lays nothing out: the preview is 200 × 400 px.
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
    x: 0, y: 0, top: 0, left: 0, right: 200, bottom: 400, width: 200, height: 400, toJSON: () => ({}),
  } as DOMRect)
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  localStorage.clear()
})

describe('PlacementEditor', () => {
  function renderEditor(t: GenerationImage = image('t-1'), onClose = vi.fn()) {
    render(
      <QueryClientProvider client={client()}>
        <PlacementEditor generationId="svc-1" backgroundId="bg-1" image={t} original={output('t-1')} imageLabel="image 1" onClose={onClose} />
      </QueryClientProvider>,
    )
    return onClose
  }

  it('previews over the background: dragging moves, the slider scales, Re-render sends the placement', async () => {
    routes.push((url) => (url === '/api/v1/task/t-1/placement' ? json(200, { data: { taskId: 't-9', serviceId: 'svc-1', sourceTaskId: 't-1', remaining: 9 } }) : undefined))
    const onClose = renderEditor()
    await waitFor(() => expect(screen.getByTestId('placement-backdrop').getAttribute('src')).toBe('http://s3/bg-1-thumb'))
    const stage = screen.getByTestId('placement-stage')
    const subject = screen.getByTestId('placement-subject')
    expect(subject.style.transform).toBe('translate(0.00%, 0.00%) scale(1.00)')

    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 100, clientY: 200 })
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 140, clientY: 180 })
    fireEvent.pointerUp(stage, { pointerId: 1 })
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 190, clientY: 10 }) // not dragging any more
    expect(subject.dataset.x).toBe('0.2')
    expect(subject.dataset.y).toBe('-0.05')

    const slider = screen.getByTestId('placement-size')
    expect(slider.className).toBe('range')
    expect(slider.style.getPropertyValue('--fill')).toBe(`${((1 - 0.3) / (2 - 0.3)) * 100}%`)
    fireEvent.change(slider, { target: { value: '0.5' } })
    expect(screen.getByTestId('placement-scale').textContent).toBe('×0.50')
    // The track fills up to the thumb (the product's slider style).
    expect(slider.style.getPropertyValue('--fill')).toBe(`${((0.5 - 0.3) / (2 - 0.3)) * 100}%`)
    expect(subject.style.transform).toBe('translate(20.00%, -5.00%) scale(0.50)')
    expect(screen.getByTestId('placement-summary').textContent).toBe('Moved 20% right, 5% up; size ×0.50')

    await userEvent.click(screen.getByTestId('placement-rerender'))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(posts()).toEqual([['/api/v1/task/t-1/placement', { x: 0.2, y: -0.05, scale: 0.5 }]])
    expect(vi.mocked(toast.success)).toHaveBeenCalledWith(expect.stringContaining('Free of charge (9 more allowed)'))
  })

  it('starts from the version’s own placement; arrow keys move it; Reset goes back', async () => {
    renderEditor(image('t-2', { sourceTaskId: 't-1', placement: { x: 0.1, y: 0, scale: 1.5 } }))
    const subject = screen.getByTestId('placement-subject')
    expect([subject.dataset.x, subject.dataset.scale]).toEqual(['0.1', '1.5'])
    subject.focus()
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}{ArrowDown}')
    expect([subject.dataset.x, subject.dataset.y]).toEqual(['0.08', '0.01'])
    await userEvent.click(screen.getByTestId('placement-reset'))
    expect([subject.dataset.x, subject.dataset.y, subject.dataset.scale]).toEqual(['0', '0', '1'])
    expect((screen.getByTestId('placement-reset') as HTMLButtonElement).disabled).toBe(true)
  })

  it('shows the server’s reason when the re-render is refused, and stays open', async () => {
    const message = 'This image was already re-rendered 10 times, the most allowed for free: choose among those versions, or create a new image.'
    routes.push((url) => (url.endsWith('/placement') ? json(409, { message }) : undefined))
    const onClose = renderEditor()
    await userEvent.click(screen.getByTestId('placement-rerender'))
    await waitFor(() => expect(screen.getByTestId('placement-error').textContent).toContain(message))
    expect(onClose).not.toHaveBeenCalled()
  })
})

describe('OutputImagePage with re-renders', () => {
  function renderPage() {
    render(
      <QueryClientProvider client={client()}>
        <MemoryRouter initialEntries={['/output-image?serviceId=svc-1']}>
          <OutputImagePage />
        </MemoryRouter>
      </QueryClientProvider>,
    )
  }

  it('shows re-renders as versions of their image, and a new one after Re-render', async () => {
    const version = image('t-2', { sourceTaskId: 't-1', placement: { x: 0.1, y: 0, scale: 1 } })
    let current = generationOf([image('t-1'), version])
    routes.push((url) => (url === '/imageedit/service/svc-1' ? json(200, { data: current }) : undefined))
    routes.push((url) => {
      if (url !== '/api/v1/task/t-1/placement') return undefined
      current = generationOf([image('t-1'), version, image('t-3', { sourceTaskId: 't-1', status: 'running', progress: 40, outputs: [], placement: { x: 0, y: -0.1, scale: 1 } })])
      return json(200, { data: { taskId: 't-3', serviceId: 'svc-1', sourceTaskId: 't-1', remaining: 8 } })
    })
    renderPage()

    await waitFor(() => expect(screen.getAllByTestId('output-item')).toHaveLength(1))
    // The line counts every tile: the image and its version.
    expect(screen.getByTestId('output-summary').textContent).toContain('1 of 1 image ready, 1 new version')
    expect(screen.getByTestId('version-image').getAttribute('alt')).toBe('Generated image 1, version 2')
    const buttons = screen.getAllByTestId('adjust-placement')
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Adjust placement of image 1',
      'Adjust placement of image 1, version 2',
    ])

    await userEvent.click(buttons[0]!)
    const stage = await screen.findByTestId('placement-stage')
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 100, clientY: 200 })
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 100, clientY: 160 })
    await userEvent.click(screen.getByTestId('placement-rerender'))

    await waitFor(() => expect(screen.queryByTestId('placement-editor')).toBeNull())
    await waitFor(() => expect(screen.getAllByTestId('version-item')).toHaveLength(2))
    const running = screen.getAllByTestId('version-item')[1]!
    expect(running.dataset.status).toBe('running')
    expect(running.textContent).toContain('Version 3 of image 1')
    expect(screen.getByTestId('output-summary').textContent).toContain('1 of 1 image ready, 1 new version, 1 re-rendering')
    expect(posts()).toEqual([['/api/v1/task/t-1/placement', { x: 0, y: -0.1, scale: 1 }]])
  })

  it('offers no adjustment without a background to stand on', async () => {
    routes.push((url) => (url === '/imageedit/service/svc-1' ? json(200, { data: generationOf([image('t-1')], 'transparent') }) : undefined))
    renderPage()
    await waitFor(() => expect(screen.getAllByTestId('output-item')).toHaveLength(1))
    expect(screen.queryByTestId('adjust-placement')).toBeNull()
  })
})
