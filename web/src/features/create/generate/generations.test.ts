import { describe, expect, it } from 'vitest'
import type { Generation, GenerationImage } from '@/types/api'
import { nextPollDelay } from './api/pollImages'
import { downloadImages, generationFinished, mergeImages, queuedImage, generationSettled, imageState } from './generations'

const image = (taskId: string, status: GenerationImage['status'], progress = 0): GenerationImage => ({ ...queuedImage(taskId), status, progress })

// The generation's images, in the order of its taskIds (the wire's name).
const taskIds = ['a', 'b']

describe('generations', () => {
  it('the long-poll `since` lists status:progress in taskIds order, unknown images as queued:0', () => {
    expect(imageState(['a', 'b'], [image('b', 'running', 40)])).toBe('queued:0,running:40')
  })

  it('merging keeps the images in order and those the server left out', () => {
    const merged = mergeImages(taskIds, [image('a', 'running', 10)], [image('b', 'completed', 100)])
    expect(merged.map((t) => [t.taskId, t.status])).toEqual([
      ['a', 'running'],
      ['b', 'completed'],
    ])
  })

  it('a generation is finished when every image completed or failed', () => {
    expect(generationFinished([])).toBe(false)
    expect(generationFinished([image('a', 'completed'), image('b', 'running')])).toBe(false)
    expect(generationFinished([image('a', 'completed'), image('b', 'failed')])).toBe(true)
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
  const generationOf = (status: Generation['status'], images: GenerationImage[]): Generation => ({
    serviceId: 's',
    service: 'bodySwap',
    status,
    credits: images.length,
    modelId: null,
    backgroundId: null,
    error: null,
    createdAt: '',
    completedAt: null,
    tasks: images,
  })

  it('is settled only when the generation and every image have ended', () => {
    expect(generationSettled(generationOf('completed', [image('a', 'completed'), image('b', 'failed')]))).toBe(true)
    expect(generationSettled(generationOf('running', [image('a', 'completed')]))).toBe(false)
    expect(generationSettled(generationOf('completed', [image('a', 'running')]))).toBe(false)
  })

  it('fills the download store with the originals and the retouched versions', () => {
    const a = { ...image('a', 'completed'), outputs: [output('out/a.jpg')], edited: output('edits/a.jpg') }
    const b = { ...image('b', 'completed'), outputs: [output('out/b.jpg')] }
    const data = downloadImages(generationOf('completed', [a, b, image('c', 'failed')]))
    expect(data.generatedImages.map((i) => [i.imageId, i.key])).toEqual([
      ['a', 'out/a.jpg'],
      ['b', 'out/b.jpg'],
    ])
    expect(data.manualEditingImages.map((i) => [i.imageId, i.key])).toEqual([['a', 'edits/a.jpg']])
  })
})
