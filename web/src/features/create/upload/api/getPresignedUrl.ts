import * as uploadsApi from '@/api/uploads'
import type { ApiQuery, PresignedUpload } from '@/types/api'

type Path = '/api/v1/request/presignedUrl'

/** Where to PUT the file (object storage), and its key. Run as a mutation by stores/uploads. */
export function getPresignedUrl(params: ApiQuery<Path, 'get'>, signal?: AbortSignal): Promise<PresignedUpload> {
  return uploadsApi.getPresignedUrl(params, signal)
}
