import { client, unwrap } from '@/api/client'
import type { ApiData } from '@/types/api'

type Path = '/api/v1/util/photoAnalysis'

/** The upload's stored analysis, or null while the imaging queue is still on it. */
export function getPhotoAnalysis(key: string, signal?: AbortSignal): Promise<ApiData<Path, 'get'>> {
  return unwrap(client.GET('/api/v1/util/photoAnalysis', { params: { query: { key } }, signal }))
}
