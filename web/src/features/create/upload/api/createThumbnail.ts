import * as uploadsApi from '@/api/uploads'
import type { Thumbnail } from '@/types/api'

/** Also validates the image: the server answers 422 {message} for unusable files. Run as a mutation. */
export function createThumbnail(key: string, signal?: AbortSignal): Promise<Thumbnail> {
  return uploadsApi.createThumbnail(key, signal)
}
