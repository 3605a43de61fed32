import { api } from '@/lib/api'
import type { ApiData } from '@/types/api'

const PATH = '/api/v1/util/photoAnalysis'

/** The upload's stored analysis, or null while the imaging queue is still on it. */
export function getPhotoAnalysis(key: string, signal?: AbortSignal): Promise<ApiData<typeof PATH, 'get'>> {
  return api.get<ApiData<typeof PATH, 'get'>>(PATH, { key }, signal)
}
