import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { ServiceJob, Task } from '@/types/api'
import { ImageTile } from './ImageTile'

const task = (taskId: string, sourceTaskId: string | null): Task => ({
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

const job = (tasks: Task[]): ServiceJob => ({
  serviceId: 'g1',
  service: 'burstreplace',
  status: 'completed',
  credits: 1,
  modelId: null,
  backgroundId: 'bg-1',
  error: null,
  createdAt: '2026-01-01T00:00:00Z',
  completedAt: '2026-01-01T00:00:05Z',
  tasks,
})

function renderTile(t: Task) {
  const noop = () => undefined
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ul>
        <ImageTile image={{ job: job([t]), task: t, position: 1 }} number={1} selected={false}
          onToggleSelect={noop} onOpen={noop} onDelete={noop} />
      </ul>
    </QueryClientProvider>,
  )
}

describe('ImageTile', () => {
  afterEach(cleanup)

  it('marks a re-render with a new placement', () => {
    renderTile(task('t2', 't1'))
    expect(screen.getByTestId('version-badge').textContent).toBe('New placement')
  })

  it('shows no such mark on an original image', () => {
    renderTile(task('t1', null))
    expect(screen.queryByTestId('version-badge')).toBeNull()
  })
})
