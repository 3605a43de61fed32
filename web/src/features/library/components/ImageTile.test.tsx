import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { Generation, GenerationImage } from '@/types/api'
import { ImageTile } from './ImageTile'

const image = (taskId: string, sourceTaskId: string | null): GenerationImage => ({
  taskId,
  status: 'completed',
  stage: '',
  progress: 100,
  inputKey: `in/${taskId}.jpg`,
  inputThumbnailUrl: '',
  outputs: [{ key: `out/${taskId}.jpg`, url: 'u', thumbnailUrl: 't' }],
  error: null,
  shared: false,
  comment: '',
  sourceTaskId,
})

const generationOf = (images: GenerationImage[]): Generation => ({
  serviceId: 'g1',
  service: 'burstreplace',
  status: 'completed',
  credits: 1,
  modelId: null,
  backgroundId: 'bg-1',
  error: null,
  createdAt: '2026-01-01T00:00:00Z',
  completedAt: '2026-01-01T00:00:05Z',
  tasks: images,
})

function renderTile(image: GenerationImage, generation: Generation = generationOf([image])) {
  const noop = () => undefined
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ul>
        <ImageTile tile={{ generation, image, position: 1 }} number={1} selected={false}
          onToggleSelect={noop} onOpen={noop} onDelete={noop} />
      </ul>
    </QueryClientProvider>,
  )
}

describe('ImageTile', () => {
  afterEach(cleanup)

  it('marks a re-render with a new placement', () => {
    renderTile(image('t2', 't1'))
    expect(screen.getByTestId('version-badge').textContent).toBe('New placement')
  })

  it('shows no such mark on an original image', () => {
    renderTile(image('t1', null))
    expect(screen.queryByTestId('version-badge')).toBeNull()
  })

  it('a failed image shows its input, the reason and the credits it gave back', () => {
    const broken: GenerationImage = { ...image('t1', null), status: 'failed', outputs: [], inputThumbnailUrl: 'http://s3/in/t1', error: 'No person found in the photo.' }
    renderTile(broken, { ...generationOf([broken, image('t2', null)]), credits: 4 })
    expect(screen.getByAltText('Input of image 1').getAttribute('src')).toBe('http://s3/in/t1')
    expect(screen.getByTestId('library-failure').textContent).toBe('No person found in the photo.')
    expect(screen.getByTestId('library-failure-credits').textContent).toBe('Its 2 credits were returned to your balance.')
    expect(screen.getByTestId('library-status').textContent).toBe('Failed')
    expect(screen.queryByTestId('library-output')).toBeNull()
    expect(screen.queryByTestId('library-select')).toBeNull()
  })

  it('an input without a thumbnail, or whose thumbnail does not load, shows a mark, not a broken image', () => {
    const failed: GenerationImage = { ...image('t1', null), status: 'failed', outputs: [], inputThumbnailUrl: 'http://s3/thumbs/in/t1.jpg' }
    renderTile(failed)
    fireEvent.error(screen.getByAltText('Input of image 1'))
    expect(screen.queryByAltText('Input of image 1')).toBeNull()
    expect(screen.getByRole('img', { name: 'Input of image 1: no preview' })).toBeTruthy()
    cleanup()
    renderTile({ ...failed, inputThumbnailUrl: '' })
    expect(screen.getByRole('img', { name: 'Input of image 1: no preview' })).toBeTruthy()
    expect(document.querySelector('img:not([src])')).toBeNull()
  })

  it('the trash icon names the image, not its generation', () => {
    renderTile(image('t1', null), generationOf([image('t1', null), image('t2', null)]))
    expect(screen.getByTestId('library-delete').getAttribute('aria-label')).toBe('Delete image 1')
  })

  it('a finished image shows the engine’s note on how it was framed', () => {
    const note = 'Framed from the knees up: the ground in this scene is too far away for a full-length person.'
    renderTile({ ...image('t1', null), note })
    expect(screen.getByTestId('library-note').textContent).toBe(note)
    cleanup()
    renderTile(image('t1', null))
    expect(screen.queryByTestId('library-note')).toBeNull()
  })

  it('a failed re-render says it cost nothing; a finished image has no failure note', () => {
    const original = image('t1', null)
    const rerender: GenerationImage = { ...image('t2', 't1'), status: 'failed', outputs: [], error: 'Re-render failed.' }
    renderTile(rerender, generationOf([original, rerender]))
    expect(screen.getByTestId('library-failure-credits').textContent).toBe('Re-renders are free: nothing was charged for this one.')
    cleanup()
    renderTile(original)
    expect(screen.queryByTestId('library-failure')).toBeNull()
    expect(screen.queryByTestId('library-failure-credits')).toBeNull()
  })
})
