import { describe, expect, it } from 'vitest'
import type { GenerationImage } from '@/types/api'
import { queuedImage } from './generations'
import { canAdjust, dragged, groupVersions, isAdjusted, NO_PLACEMENT, normalise, previewTransform, resultsSummary } from './placement'

const image = (taskId: string, sourceTaskId?: string): GenerationImage => ({ ...queuedImage(taskId), sourceTaskId: sourceTaskId ?? null })

describe('placement', () => {
  it('keeps values within the API bounds, rounded to what the controls show', () => {
    expect(normalise({ x: 0.7, y: -0.9, scale: 5 })).toEqual({ x: 0.5, y: -0.5, scale: 2 })
    expect(normalise({ x: 0.123, y: -0.004, scale: 0.1 })).toEqual({ x: 0.12, y: 0, scale: 0.3 })
    expect(Object.is(normalise({ x: -0.001, y: 0, scale: 1 }).x, -0)).toBe(false)
  })

  it('turns a drag in pixels into fractions of the preview', () => {
    expect(dragged(NO_PLACEMENT, 50, -20, 200, 400)).toEqual({ x: 0.25, y: -0.05, scale: 1 })
    expect(dragged({ x: 0.4, y: 0, scale: 1.5 }, 100, 0, 200, 400)).toEqual({ x: 0.5, y: 0, scale: 1.5 })
    expect(dragged({ x: 0.1, y: 0.1, scale: 1 }, 30, 30, 0, 0)).toEqual({ x: 0.1, y: 0.1, scale: 1 })
  })

  it('previews in the engine order: scaled around the ground point, then moved', () => {
    expect(previewTransform({ x: 0.25, y: -0.1, scale: 0.8 })).toBe('translate(25.00%, -10.00%) scale(0.80)')
    expect(isAdjusted(NO_PLACEMENT)).toBe(false)
    expect(isAdjusted({ x: 0, y: 0, scale: 1.05 })).toBe(true)
  })

  it('groups re-renders under their original, numbering only originals', () => {
    const groups = groupVersions([image('a'), image('b'), image('a2', 'a'), image('b2', 'b'), image('a3', 'a')])
    expect(groups.map((g) => [g.original.taskId, g.number, g.versions.map((v) => v.taskId)])).toEqual([
      ['a', 1, ['a2', 'a3']],
      ['b', 2, ['b2']],
    ])
  })

  it('only a background the subject stands on can be adjusted', () => {
    expect(canAdjust('bg-1')).toBe(true)
    expect(canAdjust('white')).toBe(true)
    expect(canAdjust('transparent')).toBe(false)
    expect(canAdjust(null)).toBe(false)
  })
})

describe('resultsSummary', () => {
  const out = { key: 'k', url: 'u', thumbnailUrl: 't' }
  const done = (id: string, source?: string, extra: Partial<GenerationImage> = {}): GenerationImage => ({ ...image(id, source), status: 'completed', outputs: [out], ...extra })

  it('counts every tile the page shows: images, failures, versions, re-renders under way and edits', () => {
    const images = [
      done('a', undefined, { edited: out }),
      { ...image('b'), status: 'failed' as const },
      done('c'),
      done('a2', 'a'),
      done('c2', 'c'),
      { ...image('a3', 'a'), status: 'running' as const },
      { ...image('c3', 'c'), status: 'failed' as const }, // a failed re-render has no tile
    ]
    expect(resultsSummary(groupVersions(images))).toBe('2 of 3 images ready, 1 failed, 2 new versions, 1 re-rendering, 1 edited')
  })

  it('says only what there is', () => {
    expect(resultsSummary(groupVersions([done('a')]))).toBe('1 of 1 image ready')
    expect(resultsSummary(groupVersions([done('a'), done('a2', 'a')]))).toBe('1 of 1 image ready, 1 new version')
  })
})
