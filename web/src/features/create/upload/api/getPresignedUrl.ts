import { client, unwrap } from '@/api/client'
import type { ApiQuery, PresignedUpload } from '@/types/api'

type Path = '/api/v1/request/presignedUrl'

/** Where to PUT the file (object storage), and its key. Run as a mutation by stores/uploads. */
export function getPresignedUrl(params: ApiQuery<Path, 'get'>, signal?: AbortSignal): Promise<PresignedUpload> {
  return unwrap(client.GET('/api/v1/request/presignedUrl', { params: { query: params }, signal }))
}
