import { describe, expect, it } from 'vitest'
import type { Generation, GenerationImage } from '@/types/api'
import { nextPollDelay } from './api/pollImages'
import { downloadImages, generationFinished, mergeImages, queuedImage, generationSettled, imageState } from './generations'

const task = (taskId: string, status: GenerationImage['status'], progress = 0): GenerationImage => ({ ...queuedImage(taskId), status, progress })

// The generation's tasks, in the order of its taskIds.
const taskIds = ['a', 'b']

describe('generations', () => {
  it('the long-poll `since` lists status:progress in taskIds order, unknown tasks as queued:0', () => {
    expect(imageState(['a', 'b'], [task('b', 'running', 40)])).toBe('queued:0,running:40')
  })

  it('merging keeps the task order and tasks the server left out', () => {
    const merged = mergeImages(taskIds, [task('a', 'running', 10)], [task('b', 'completed', 100)])
    expect(merged.map((t) => [t.taskId, t.status])).toEqual([
      ['a', 'running'],
      ['b', 'completed'],
    ])
  })

  it('a generation is finished when every task completed or failed', () => {
    expect(generationFinished([])).toBe(false)
    expect(generationFinished([task('a', 'completed'), task('b', 'running')])).toBe(false)
    expect(generationFinished([task('a', 'completed'), task('b', 'failed')])).toBe(true)
  })
})

describe('long-poll pacing', () => {
  const idle = { fetchStatus: 'idle', status: 'success', errorUpdateCount: 0 }

  it('no timer while a poll is under way', () => {
    expect(nextPollDelay({ ...idle, fetchStatus: 'fetching' })).toBe(false)
  })

  it('asks again at once after a change, after a pause when nothing moved', () => {
    expect(nextPollDelay({ ...idle, data: { images: [], changed: true } })).toBe(1)
    expect(nextPollDelay({ ...idle, data: { images: [], changed: false } })).toBe(700)
  })

  it('backs off after errors, up to 10 s', () => {
    expect(nextPollDelay({ ...idle, status: 'error', errorUpdateCount: 1 })).toBe(1400)
    expect(nextPollDelay({ ...idle, status: 'error', errorUpdateCount: 10 })).toBe(10_000)
  })
})

describe('the output page (from the server)', () => {
  const output = (key: string) => ({ key, url: `https://s3/${key}`, thumbnailUrl: `https://s3/t/${key}` })
  const service = (status: Generation['status'], tasks: GenerationImage[]): Generation => ({
    serviceId: 's',
    service: 'bodySwap',
    status,
    credits: tasks.length,
    modelId: null,
    backgroundId: null,
    error: null,
    createdAt: '',
    completedAt: null,
    tasks,
  })

  it('is settled only when the generation and every image have ended', () => {
    expect(generationSettled(service('completed', [task('a', 'completed'), task('b', 'failed')]))).toBe(true)
    expect(generationSettled(service('running', [task('a', 'completed')]))).toBe(false)
    expect(generationSettled(service('completed', [task('a', 'running')]))).toBe(false)
  })

  it('fills the download store with the originals and the retouched versions', () => {
    const a = { ...task('a', 'completed'), outputs: [output('out/a.jpg')], edited: output('edits/a.jpg') }
    const b = { ...task('b', 'completed'), outputs: [output('out/b.jpg')] }
    const data = downloadImages(service('completed', [a, b, task('c', 'failed')]))
    expect(data.generatedImages.map((i) => [i.imageId, i.key])).toEqual([
      ['a', 'out/a.jpg'],
      ['b', 'out/b.jpg'],
    ])
    expect(data.manualEditingImages.map((i) => [i.imageId, i.key])).toEqual([['a', 'edits/a.jpg']])
  })
})
