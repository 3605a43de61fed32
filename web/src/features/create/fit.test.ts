import { describe, expect, it } from 'vitest'
import type { PhotoAnalysis } from '@/types/api'
import { readiness, swapFitKeys, switchableKind, unusablePhotos, usablePhotos } from './fit'
import type { FlowFile } from './store'

const GROUP = 'This photo shows 2 people; a model swap needs a photo of one person.'
const TONE = 'We could not swap to this model: their skin tone is too far'

function analysis(swap: string | null, replace: string | null = null): PhotoAnalysis {
  return {
    kind: 'person',
    people: 1,
    view: 'front',
    face: 'full',
    garment: null,
    can: { bodySwap: { ok: swap === null, reason: swap }, burstreplace: { ok: replace === null, reason: replace } },
  }
}

function file(id: string, extra: Partial<FlowFile> = {}): FlowFile {
  return {
    _id: id, name: `${id}.jpg`, mimeType: 'image/jpeg', size: 1, source: 'upload', status: 'done', key: `uploads/${id}.jpg`,
    serverId: `u-${id}`, url: null, thumbnailUrl: null, width: 1, height: 1, error: null, analysis: analysis(null), ...extra,
  }
}

describe('which photos each kind of generation can use', () => {
  it('lists every photo the analysis rules out, with its number and reason, and counts only the others', () => {
    const files = [file('a', { analysis: analysis(GROUP) }), file('b'), file('c', { analysis: analysis(GROUP) })]
    expect(unusablePhotos(files, 'bodySwap').map((u) => [u.number, u.reason])).toEqual([[1, GROUP], [3, GROUP]])
    expect(usablePhotos(files, 'bodySwap').map((f) => f._id)).toEqual(['b'])
    // A new background takes them all.
    expect(unusablePhotos(files, 'burstreplace')).toEqual([])
    expect(switchableKind(unusablePhotos(files, 'bodySwap'), 'bodySwap')).toBe('burstreplace')
  })

  it('adds the photos whose skin tone the chosen model cannot reach', () => {
    const files = [file('a'), file('b')]
    const fit = { compatible: false, reason: TONE, incompatibleUploads: ['u-b'] }
    expect(unusablePhotos(files, 'bodySwap', fit).map((u) => [u.number, u.reason])).toEqual([[2, TONE]])
    expect(usablePhotos(files, 'bodySwap', fit).map((f) => f._id)).toEqual(['a'])
    expect(unusablePhotos(files, 'bodySwap', { compatible: true })).toEqual([])
  })

  it('offers no switch when the other kind refuses a photo too', () => {
    const files = [file('a', { analysis: analysis(GROUP, 'Nothing to cut out.') })]
    expect(switchableKind(unusablePhotos(files, 'bodySwap'), 'bodySwap')).toBeNull()
  })

  it('asks the model list about own uploads a model swap can use only', () => {
    const files = [file('a'), file('b', { analysis: analysis(GROUP) }), file('s', { source: 'sample' }), file('u', { status: 'uploading', key: null })]
    expect(swapFitKeys(files)).toEqual(['uploads/a.jpg'])
  })

  it('the upload page says for which kind the photos are ready', () => {
    const all = [file('a', { analysis: analysis(GROUP) }), file('b', { analysis: analysis(GROUP) }), file('c', { analysis: analysis(GROUP) })]
    expect(readiness(all)).toBe('3 images ready: none for a model swap, 3 for a new background')
    expect(readiness([file('a'), file('b')])).toBe('2 images ready')
    expect(readiness([file('a'), file('b', { analysis: analysis(GROUP) })])).toBe('2 images ready: 1 for a model swap, 2 for a new background')
  })
})
