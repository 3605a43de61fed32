import { describe, expect, it } from 'vitest'
import type { Generation, GenerationImage } from '@/types/api'
import { libraryQueryOptions } from './api/getLibrary'
import { anyActive, downloadable, LIBRARY_LIVE_MS, pageCount, parsePage, parseKind, parseStatus, tilesOf } from './generations'

const image = (taskId: string, status: GenerationImage['status'], outputs = status === 'completed' ? 1 : 0): GenerationImage => ({
  taskId,
  status,
  stage: '',
  progress: 0,
  inputKey: `in/${taskId}.jpg`,
  inputThumbnailUrl: '',
  outputs: Array.from({ length: outputs }, () => ({ key: `out/${taskId}.jpg`, url: 'u', thumbnailUrl: 't' })),
  error: null,
  shared: false,
  comment: '',
})

const generation = (generationId: string, status: Generation['status'], images: GenerationImage[]): Generation => ({
  serviceId: generationId,
  service: 'bodySwap',
  status,
  credits: images.length,
  modelId: null,
  backgroundId: null,
  error: null,
  createdAt: '2026-01-01T00:00:00Z',
  completedAt: null,
  tasks: images,
})

describe('library generations', () => {
  it('keeps refreshing only while a generation or one of its images is queued or running', () => {
    const done = generation('a', 'completed', [image('a1', 'completed')])
    const running = generation('b', 'running', [image('b1', 'completed'), image('b2', 'running')])
    expect(anyActive([done])).toBe(false)
    expect(anyActive([done, running])).toBe(true)
    expect(anyActive(undefined)).toBe(false)

    const options = libraryQueryOptions('me@example.com', { kind: '', status: '', page: 1 })
    const interval = options.refetchInterval as (q: { state: { data?: { items: Generation[] } } }) => number | false
    expect(interval({ state: { data: { items: [done, running] } } })).toBe(LIBRARY_LIVE_MS)
    expect(interval({ state: { data: { items: [done] } } })).toBe(false)
  })

  it('one tile per image; only finished images with an output can be downloaded', () => {
    const tiles = tilesOf([generation('a', 'completed', [image('a1', 'completed'), image('a2', 'failed')])])
    expect(tiles.map((tile) => [tile.image.taskId, tile.position])).toEqual([
      ['a1', 1],
      ['a2', 2],
    ])
    expect(tiles.map((tile) => downloadable(tile.image))).toEqual([true, false])
    expect(downloadable(image('x', 'completed', 0))).toBe(false)
  })

  it('reads filters and pages from the address defensively', () => {
    expect(parseKind('bodySwap')).toBe('bodySwap')
    expect(parseKind('nope')).toBe('')
    expect(parseStatus('failed')).toBe('failed')
    expect(parseStatus(null)).toBe('')
    expect(parsePage('3')).toBe(3)
    expect(parsePage('-1')).toBe(1)
    expect(parsePage('x')).toBe(1)
    expect(pageCount(0)).toBe(1)
    expect(pageCount(90)).toBe(1)
    expect(pageCount(91)).toBe(2)
  })
})
