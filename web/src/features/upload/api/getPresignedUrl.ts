import { api } from '@/lib/api'
import type { ApiQuery, PresignedUpload } from '@/types/api'

const PATH = '/api/v1/request/presignedUrl'

/** Where to PUT the file (object storage), and its key. Run as a mutation by stores/uploads. */
export function getPresignedUrl(params: ApiQuery<typeof PATH, 'get'>, signal?: AbortSignal): Promise<PresignedUpload> {
  return api.get<PresignedUpload>(PATH, params, signal)
}
