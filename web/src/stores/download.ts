/**
 * Download data (spec §3, §4): the generated images and the manually edited
 * (retouched) ones offered for download. It can be merged or reset.
 */
import { atom } from 'jotai'
import type { ImageOutput } from '@/types/api'

export interface DownloadImage extends ImageOutput {
  imageId: string
}

export interface DownloadData {
  generatedImages: DownloadImage[]
  manualEditingImages: DownloadImage[]
}

export function emptyDownloadData(): DownloadData {
  return { generatedImages: [], manualEditingImages: [] }
}

export const downloadDataAtom = atom<DownloadData>(emptyDownloadData())

/** Merge: the lists given replace those lists; the others are kept. */
export const mergeDownloadAtom = atom(null, (get, set, patch: Partial<DownloadData>) => {
  set(downloadDataAtom, { ...get(downloadDataAtom), ...patch })
})

export const resetDownloadAtom = atom(null, (_get, set) => {
  set(downloadDataAtom, emptyDownloadData())
})
