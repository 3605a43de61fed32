import { createStore } from 'jotai'
import { describe, expect, it } from 'vitest'
import { downloadDataAtom, mergeDownloadAtom, resetDownloadAtom, type DownloadImage } from './download'

const image = (imageId: string): DownloadImage => ({ imageId, key: `out/${imageId}.png`, url: 'u', thumbnailUrl: 't' })

describe('download store', () => {
  it('starts empty', () => {
    expect(createStore().get(downloadDataAtom)).toEqual({ generatedImages: [], manualEditingImages: [] })
  })

  it('merge replaces the lists given and keeps the others', () => {
    const store = createStore()
    store.set(mergeDownloadAtom, { generatedImages: [image('a'), image('b')] })
    store.set(mergeDownloadAtom, { manualEditingImages: [image('a')] })
    expect(store.get(downloadDataAtom).generatedImages.map((i) => i.imageId)).toEqual(['a', 'b'])
    expect(store.get(downloadDataAtom).manualEditingImages.map((i) => i.imageId)).toEqual(['a'])

    store.set(mergeDownloadAtom, { generatedImages: [image('c')] })
    expect(store.get(downloadDataAtom).generatedImages.map((i) => i.imageId)).toEqual(['c'])
    expect(store.get(downloadDataAtom).manualEditingImages).toHaveLength(1)
  })

  it('reset empties both lists', () => {
    const store = createStore()
    store.set(mergeDownloadAtom, { generatedImages: [image('a')], manualEditingImages: [image('a')] })
    store.set(resetDownloadAtom)
    expect(store.get(downloadDataAtom)).toEqual({ generatedImages: [], manualEditingImages: [] })
  })
})
