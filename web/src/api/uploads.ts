// Uploading a photo: where to PUT it (object storage), its thumbnail and its analysis; the
// sample photos. The PUT itself goes straight to storage (lib/api putToStorage).
import type { ApiQuery } from '@/types/api'
import { client, unwrap } from './client'

export function getPresignedUrl(query: ApiQuery<'/api/v1/request/presignedUrl', 'get'>, signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/request/presignedUrl', { params: { query }, signal }))
}

/** Also validates the image: the server answers 422 {message} for unusable files. */
export function createThumbnail(key: string, signal?: AbortSignal) {
  return unwrap(client.POST('/api/v1/util/createThumbnail', { body: { key }, signal }))
}

/** The upload's stored analysis, or null while the imaging queue is still on it. */
export function getPhotoAnalysis(key: string, signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/util/photoAnalysis', { params: { query: { key } }, signal }))
}

export function getSamples(query: ApiQuery<'/api/v1/sample', 'get'>, signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/sample', { params: { query }, signal }))
}
