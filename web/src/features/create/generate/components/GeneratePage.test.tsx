import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import { Provider } from 'jotai'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { appStore } from '@/stores/appStore'
import { addFilesAtom, mergeFlowAtom, resetFlowAtom, stepsFlowAtom, updateGenerationAtom, type FlowFile, type FlowGeneration } from '@/features/create/store'
import type { Generation, GenerationImage } from '@/types/api'
import { imagesQueryKey, type ImageSnapshot } from '../api/pollImages'
import { GeneratePage } from './GeneratePage'
import { OutputImagePage } from './OutputImagePage'
import { ImageCard } from './ImageCard'
import { json } from '@/testing/http'

const output = (id: string) => ({ key: `outputs/${id}.jpg`, url: `http://s3/o/${id}`, thumbnailUrl: `http://s3/ot/${id}` })

const done = (taskId: string): GenerationImage => ({
  taskId,
  status: 'completed',
  progress: 100,
  stage: 'completed',
  inputKey: `uploads/a/${taskId}.jpg`,
  inputThumbnailUrl: `http://s3/in/${taskId}`,
  outputs: [output(taskId)],
  error: null,
  shared: false,
  comment: '',
})

const failed = (taskId: string, error: string, extra: Partial<GenerationImage> = {}): GenerationImage => ({
  ...done(taskId),
  status: 'failed',
  stage: 'failed',
  outputs: [],
  error,
  ...extra,
})

const generation = (images: GenerationImage[], credits: number): FlowGeneration => ({
  id: 'svc-1',
  kind: 'bodySwap',
  imageIds: images.map((t) => t.taskId),
  credits,
  createdAt: '2026-11-24T04:00:00+00:00',
  modelName: null,
  backgroundName: null,
  notifyEmail: null,
})

const serverGeneration = (images: GenerationImage[], credits: number): Generation => ({
  serviceId: 'svc-1',
  service: 'bodySwap',
  status: 'completed',
  credits,
  modelId: 'm-1',
  backgroundId: null,
  error: null,
  createdAt: '2026-11-24T04:00:00+00:00',
  completedAt: '2026-11-24T04:00:05+00:00',
  tasks: images,
})

type Route = (url: string) => Response | undefined
let routes: Route[]
/** The images of the generation as last polled: they live in the query cache, not in the flow. */
let polled: GenerationImage[] | null
/** The JSON bodies sent, by URL. */
let bodies: { url: string; body: Record<string, unknown> }[]

/** This tab started the generation (the flow store) and knows its images (the query cache). */
function startGeneration(images: GenerationImage[], credits: number) {
  appStore.set(updateGenerationAtom, generation(images, credits))
  polled = images
}

beforeEach(() => {
  polled = null
  localStorage.setItem('mm:guestToken', 'guest-token')
  routes = [(url) => (url.startsWith('/imageedit/users/getCreditsForGuests') ? json(200, { data: { free: 3, paid: 0, total: 3 } }) : undefined)]
  bodies = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (typeof init?.body === 'string') bodies.push({ url, body: JSON.parse(init.body) as Record<string, unknown> })
      for (const route of routes) {
        const found = route(url)
        if (found) return found
      }
      return json(404, { message: `no route for ${url}` })
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

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  if (polled) client.setQueryData<ImageSnapshot>(imagesQueryKey('svc-1'), { images: polled, changed: false })
  render(
    <QueryClientProvider client={client}>
      <Provider store={appStore}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/generate" element={<GeneratePage />} />
            <Route path="/output-image" element={<OutputImagePage />} />
            <Route path="/select-background" element={<p data-testid="background-page">backgrounds</p>} />
          </Routes>
        </MemoryRouter>
      </Provider>
    </QueryClientProvider>,
  )
}

describe('GeneratePage after a batch', () => {
  it('shows no failure banner when every image was made', () => {
    startGeneration([done('t-1'), done('t-2')], 2)
    renderAt('/generate')
    expect(screen.getByTestId('job-summary').textContent).toBe('2 of 2 done')
    expect(screen.queryByTestId('failure-banner')).toBeNull()
  })

  it('names the one failed image and its credit back', () => {
    startGeneration([done('t-1'), failed('t-2', 'No person found in the photo.'), done('t-3')], 3)
    renderAt('/generate')
    const banner = screen.getByTestId('failure-banner')
    expect(banner.textContent).toContain('Some images could not be generated')
    expect(banner.textContent).toContain('1 of 3 images failed; its 1 credit was returned to your balance.')
  })

  it('counts several failures and their credits', () => {
    startGeneration([failed('t-1', 'a'), done('t-2'), failed('t-3', 'b'), done('t-4'), done('t-5')], 10)
    renderAt('/generate')
    expect(screen.getByTestId('failure-banner').textContent).toContain(
      '2 of 5 images failed; their 4 credits were returned to your balance.',
    )
  })

  it('when all failed: says so, and each tile shows its input and its reason', () => {
    startGeneration([failed('t-1', 'The photo is too dark.'), failed('t-2', 'No person found in the photo.')], 2)
    renderAt('/generate')
    const banner = screen.getByTestId('failure-banner')
    expect(banner.textContent).toContain('No image could be generated')
    expect(banner.textContent).toContain('All 2 images failed; their 2 credits were returned to your balance.')
    const cards = screen.getAllByTestId('task-card')
    expect(cards.map((c) => within(c).getByTestId('task-input').getAttribute('src'))).toEqual(['http://s3/in/t-1', 'http://s3/in/t-2'])
    expect(cards.map((c) => within(c).getByTestId('task-error').textContent)).toEqual([
      'The photo is too dark.',
      'No person found in the photo.',
    ])
    expect(screen.queryByTestId('view-results')).toBeNull()
  })

  it('moves on to the results with the failed images still in view', async () => {
    const finished = [done('t-1'), failed('t-2', 'No person found in the photo.'), done('t-3')]
    const running = finished.map((t) => ({ ...t, status: 'running' as const, progress: 50, outputs: [], error: null }))
    startGeneration(running, 3)
    routes.push((url) => (url.startsWith('/api/v1/task/pollTasks') ? json(200, { data: finished }) : undefined))
    routes.push((url) => (url === '/imageedit/service/svc-1' ? json(200, { data: serverGeneration(finished, 3) }) : undefined))
    renderAt('/generate')

    await waitFor(() => expect(screen.getByTestId('output-results')).toBeTruthy())
    expect(screen.getAllByTestId('output-item')).toHaveLength(2)
    expect(screen.getByTestId('failure-banner').textContent).toContain('1 of 3 images failed; its 1 credit was returned to your balance.')
    const tile = screen.getByTestId('output-failed')
    expect(tile.dataset.taskId).toBe('t-2')
    expect(within(tile).getByTestId('failed-input').getAttribute('src')).toBe('http://s3/in/t-2')
    expect(within(tile).getByAltText('Input image 2')).toBeTruthy()
    expect(within(tile).getByTestId('output-failure').textContent).toBe('No person found in the photo.')
    expect(within(tile).getByTestId('output-failure-credits').textContent).toBe('Its 1 credit was returned to your balance.')
  })
})

describe('OutputImagePage with failed images', () => {
  it('keeps the image order, leaves free re-renders out of the count, and says they cost nothing', async () => {
    const note = 'Framed from the knees up: the scene has water where a person would stand.'
    const images = [
      { ...done('t-1'), note },
      failed('t-2', 'The photo is too dark.', { inputThumbnailUrl: '' }),
      failed('t-3', 'Re-render failed.', { sourceTaskId: 't-1' }),
    ]
    routes.push((url) => (url === '/imageedit/service/svc-1' ? json(200, { data: serverGeneration(images, 4) }) : undefined))
    renderAt('/output-image?serviceId=svc-1')

    const tile = await screen.findByTestId('output-failed')
    expect(screen.getByTestId('failure-banner').textContent).toContain('1 of 2 images failed; its 2 credits were returned to your balance.')
    // No input thumbnail in the data: a placeholder, never a broken image.
    expect(within(tile).queryByTestId('failed-input')).toBeNull()
    expect(within(tile).getByTestId('output-failure').textContent).toBe('The photo is too dark.')
    const grid = tile.parentElement!
    expect(Array.from(grid.children).map((li) => (li as HTMLElement).dataset.taskId)).toEqual(['t-1', 't-2'])
    expect(screen.getByTestId('rerender-failure').textContent).toContain('Re-renders are free: nothing was charged for this one.')
    // The finished image carries the engine's note on its framing.
    expect(screen.getByTestId('output-note').textContent).toBe(note)
  })
})

describe('ImageCard', () => {
  const upload: FlowFile = {
    _id: 'f-1', name: 'a.jpg', mimeType: 'image/jpeg', size: 1, source: 'upload', status: 'done', key: 'uploads/a/t-1.jpg',
    serverId: 'u-1', url: 'http://s3/u/a', thumbnailUrl: 'http://s3/local/a', width: 1, height: 1, error: null,
  }

  it('a failed image shows this tab’s input thumbnail when it has one, and the reason', () => {
    render(<ul><ImageCard image={failed('t-1', 'Too small.')} index={0} input={upload} /></ul>)
    expect(screen.getByTestId('task-input').getAttribute('src')).toBe('http://s3/local/a')
    expect(screen.getByTestId('task-error').textContent).toBe('Too small.')
    expect(screen.queryByTestId('result-image')).toBeNull()
  })

  it('a finished image shows the engine’s note on how it was framed; none when there is none', () => {
    const note = 'Framed from the knees up: the scene has water where a person would stand.'
    render(<ul><ImageCard image={{ ...done('t-1'), note }} index={0} /></ul>)
    expect(screen.getByTestId('task-note').textContent).toBe(note)
    cleanup()
    render(<ul><ImageCard image={done('t-1')} index={0} /></ul>)
    expect(screen.queryByTestId('task-note')).toBeNull()
  })

  it('falls back to the server’s input thumbnail, and a plain reason when none came', () => {
    render(<ul><ImageCard image={failed('t-1', '', { error: null })} index={0} /></ul>)
    expect(screen.getByTestId('task-input').getAttribute('src')).toBe('http://s3/in/t-1')
    expect(screen.getByTestId('task-error').textContent).toBe('The image could not be generated.')
  })
})

describe('GeneratePage before the click: photos the kind cannot use', () => {
  const GROUP = 'This photo shows 2 people; a model swap needs a photo of one person. Crop it to one person, or use another photo.'
  const TONE = "We could not swap to this model: their skin tone is too far from the person's in the photo for an even result (a model with a closer skin tone works best)"
  const photo = (id: string, swap: string | null): FlowFile => ({
    _id: id, name: `${id}.jpg`, mimeType: 'image/jpeg', size: 1, source: 'upload', status: 'done', key: `uploads/${id}.jpg`,
    serverId: `u-${id}`, url: `http://s3/u/${id}`, thumbnailUrl: null, width: 1, height: 1, error: null,
    analysis: { kind: 'person', people: swap ? 2 : 1, view: 'front', face: 'full', garment: null,
      can: { bodySwap: { ok: swap === null, reason: swap }, burstreplace: { ok: true, reason: null } } },
  })
  const mei = { _id: 'model-1', name: 'Mei', category: 'studio', url: '', thumbnailUrl: '' }

  function serveCostAndFits(incompatible: string[]) {
    routes.push((url) =>
      url.startsWith('/api/v1/request/costPublic')
        ? json(200, { data: { credits: (bodies.at(-1)!.body.inputFiles as string[]).length } })
        : undefined,
    )
    routes.push((url) =>
      url.startsWith('/api/v1/models')
        ? json(200, { data: { items: [{ id: 'model-1', compatible: incompatible.length === 0, reason: incompatible.length ? TONE : null, incompatibleUploads: incompatible }], total: 1, pageNum: 1, pageSize: 100 } })
        : undefined,
    )
  }

  it('three photos a model swap cannot use: each listed with its reason, nothing to price, no Generate', async () => {
    appStore.set(addFilesAtom, [photo('a', GROUP), photo('b', GROUP), photo('c', GROUP)])
    appStore.set(mergeFlowAtom, { stepSelectModel: { selectedModel: mei } })
    serveCostAndFits([])
    renderAt('/generate')
    const list = screen.getByTestId('unusable-photos')
    expect(list.textContent).toContain('None of your 3 photos can be used for a model swap')
    expect(within(list).getAllByTestId('unusable-photo').map((li) => li.textContent)).toEqual([
      `Image 1 (a.jpg): ${GROUP}`,
      `Image 2 (b.jpg): ${GROUP}`,
      `Image 3 (c.jpg): ${GROUP}`,
    ])
    expect(screen.queryByTestId('generate-button')).toBeNull()
    expect(screen.queryByTestId('cost-value')).toBeNull()
    expect(screen.getByTestId('no-usable-images')).toBeTruthy()
    // A new background would take them all: one click switches (and asks for a background).
    within(list).getByTestId('switch-service').click()
    expect(await screen.findByTestId('background-page')).toBeTruthy()
    expect(appStore.get(stepsFlowAtom).stepSelectModel.selectedModel).toBeNull()
  })

  it('counts and prices only the usable photos; one click drops the others', async () => {
    appStore.set(addFilesAtom, [photo('a', GROUP), photo('b', null), photo('c', null)])
    appStore.set(mergeFlowAtom, { stepSelectModel: { selectedModel: mei } })
    serveCostAndFits(['u-c'])
    renderAt('/generate')
    // The model's skin tone is too far from photo c's: known once the model list answers.
    await waitFor(() => expect(within(screen.getByTestId('unusable-photos')).getAllByTestId('unusable-photo')).toHaveLength(2))
    const list = screen.getByTestId('unusable-photos')
    expect(list.textContent).toContain('2 of your 3 photos cannot be used for a model swap: they are skipped')
    expect(within(list).getAllByTestId('unusable-photo')[1]!.textContent).toBe(`Image 3 (c.jpg): ${TONE}.`)
    await waitFor(() => expect(screen.getByTestId('cost-value').textContent).toBe('1'))
    expect(bodies.filter((b) => b.url.startsWith('/api/v1/request/costPublic')).at(-1)!.body.inputFiles).toEqual(['uploads/b.jpg'])
    expect(screen.getByText(/1 image · model swap/)).toBeTruthy()
    within(list).getByTestId('drop-unusable').click()
    await waitFor(() => expect(screen.queryByTestId('unusable-photos')).toBeNull())
    expect(appStore.get(stepsFlowAtom).stepUploadImages.files.map((f) => f._id)).toEqual(['b'])
  })
})
