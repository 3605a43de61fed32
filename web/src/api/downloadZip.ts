/**
 * One ZIP of several generated images (the originals, plus retouched versions where an operator
 * attached one), streamed by the server: POST /imageedit/service/download. Shared by My Images
 * (library) and the output page (create) through components/ZipDownloadButton; the body is read
 * as it arrives (lib/zipDownload) so the button can show how far the download is.
 */
import { attachmentName, readWithProgress, type ZipProgress } from '@/lib/zipDownload'
import type { ApiBody } from '@/types/api'
import { client } from './client'

type Path = '/imageedit/service/download'
export type ZipRequest = ApiBody<Path, 'post'>

export interface ZipFile {
  blob: Blob
  fileName: string
}

/** The chosen images as one ZIP. Errors are the server's messages (ApiError). */
export async function downloadZip(
  imageIds: string[],
  onProgress: (p: ZipProgress) => void,
  signal?: AbortSignal,
): Promise<ZipFile> {
  const body: ZipRequest = { taskIds: imageIds }
  // The Response itself: its body is read as a stream, not parsed.
  const { response } = await client.POST('/imageedit/service/download', {
    body,
    headers: { Accept: 'application/zip, application/json' },
    signal,
    parseAs: 'stream',
  })
  const blob = await readWithProgress(response, onProgress)
  return { blob, fileName: attachmentName(response.headers) }
}
