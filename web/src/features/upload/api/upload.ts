import { api } from '@/lib/api'
import type { PresignedUpload, RequestType, SampleImage, Thumbnail } from '@/types/api'

export function getPresignedUrl(
  params: { filename: string; mimeType: string; requestType: RequestType },
  signal?: AbortSignal,
): Promise<PresignedUpload> {
  return api.get<PresignedUpload>('/api/v1/request/presignedUrl', params, signal)
}

/** Also validates the image: the server answers 422 {message} for unusable files. */
export function createThumbnail(key: string, signal?: AbortSignal): Promise<Thumbnail> {
  return api.post<Thumbnail>('/api/v1/util/createThumbnail', { key }, { signal })
}

export async function getSamples(signal?: AbortSignal): Promise<SampleImage[]> {
  const data = await api.get<{ items: SampleImage[] }>('/api/v1/sample', { sampleType: 'bodySwapInputFile' }, signal)
  return data.items ?? []
}
