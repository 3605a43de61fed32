import { client, unwrap } from '@/api/client'
import type { Thumbnail } from '@/types/api'

/** Also validates the image: the server answers 422 {message} for unusable files. Run as a mutation. */
export function createThumbnail(key: string, signal?: AbortSignal): Promise<Thumbnail> {
  return unwrap(client.POST('/api/v1/util/createThumbnail', { body: { key }, signal }))
}
