import type { DownloadData } from '@/stores/download'
import type { Generation, GenerationImage } from '@/types/api'

/** An image the server has not reported yet. */
export function queuedImage(imageId: string): GenerationImage {
  return {
    taskId: imageId,
    status: 'queued',
    stage: '',
    progress: 0,
    inputKey: '',
    inputThumbnailUrl: '',
    outputs: [],
    error: null,
    shared: false,
    comment: '',
  }
}

export function isTerminal(image: GenerationImage): boolean {
  return image.status === 'completed' || image.status === 'failed'
}

/** A generation has finished when its images are known and every one completed or failed. */
export function generationFinished(images: GenerationImage[]): boolean {
  return images.length > 0 && images.every(isTerminal)
}

/**
 * A generation's images in its order (`imageIds`): the fresh state where the server reported one,
 * else the state known before, else queued.
 */
export function mergeImages(imageIds: string[], known: GenerationImage[], fresh: GenerationImage[]): GenerationImage[] {
  const byId = new Map(fresh.map((t) => [t.taskId, t]))
  return imageIds.map((id) => byId.get(id) ?? known.find((t) => t.taskId === id) ?? queuedImage(id))
}

/** The `since` of a long poll: each image's `status:progress`, in imageIds order (see the API). */
export function imageState(imageIds: string[], images: GenerationImage[]): string {
  const byId = new Map(images.map((t) => [t.taskId, t]))
  return imageIds
    .map((id) => {
      const t = byId.get(id)
      return t ? `${t.status}:${t.progress}` : 'queued:0'
    })
    .join(',')
}

/** A generation as the server reports it is over: its status and every image are terminal. */
export function generationSettled(generation: Generation): boolean {
  return (generation.status === 'completed' || generation.status === 'failed') && generation.tasks.every(isTerminal)
}

/** The images of a generation for the download store: originals, and retouched versions. */
export function downloadImages(generation: Generation): DownloadData {
  return {
    generatedImages: generation.tasks.flatMap((image) => image.outputs.map((output) => ({ ...output, imageId: image.taskId }))),
    manualEditingImages: generation.tasks.flatMap((image) => (image.edited ? [{ ...image.edited, imageId: image.taskId }] : [])),
  }
}
