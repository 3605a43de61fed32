import { describe, expect, it } from 'vitest'
import type { PhotoAnalysis } from '@/types/api'
import { describePhoto, kindVerdicts } from './analysis'

const group: PhotoAnalysis = {
  kind: 'person',
  people: 2,
  view: 'front',
  face: 'full',
  garment: null,
  can: {
    bodySwap: { ok: false, reason: 'This photo shows 2 people; a model swap needs a photo of one person.' },
    burstreplace: { ok: true, reason: null },
  },
}

describe('the photo analysis in plain words', () => {
  it('names what the photo shows', () => {
    expect(describePhoto(group)).toBe('2 people, facing the camera')
    expect(describePhoto({ ...group, people: 1, view: 'back' })).toBe('A person, seen from behind')
    expect(describePhoto({ ...group, kind: 'garment', people: 0, view: null, garment: 'top' })).toBe('A garment (top)')
    expect(describePhoto({ ...group, kind: 'neither', people: 0 })).toBe('No person or garment found')
  })

  it('says for each kind whether it can be used, and why not', () => {
    expect(kindVerdicts(group)).toEqual([
      { kind: 'bodySwap', label: 'Model swap', ok: false, reason: group.can.bodySwap?.reason },
      { kind: 'burstreplace', label: 'New background', ok: true, reason: null },
    ])
  })

  it('treats a kind the analysis does not name as not possible', () => {
    expect(kindVerdicts({ ...group, can: {} }).every((v) => !v.ok)).toBe(true)
  })
})
