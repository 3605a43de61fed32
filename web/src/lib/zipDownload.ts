/**
 * Reading a download as it arrives: its size and file name from the headers, and its body
 * chunk by chunk, counted against Content-Length so a page can show how far it is. The ZIP of
 * chosen images (api/downloadZip) and the invoice PDF (billing) use it; no server calls here.
 */
import { ApiError } from './api'

export const ZIP_FALLBACK_NAME = 'metamodel-images.zip'

export interface ZipProgress {
  /** Bytes read so far. */
  received: number
  /** The announced size (Content-Length), or null when the server did not say. */
  total: number | null
}

/** 0..100, or null when the size is unknown (an indeterminate download). */
export function zipPercent({ received, total }: ZipProgress): number | null {
  if (total === null || total <= 0) return null
  return Math.max(0, Math.min(100, (received / total) * 100))
}

/** The announced body size, or null. */
export function contentLength(headers: Headers): number | null {
  const raw = headers.get('Content-Length')
  if (!raw || !/^\d+$/.test(raw.trim())) return null
  const n = Number(raw)
  return n > 0 ? n : null
}

/** The file name from Content-Disposition (`filename="…"`), else the fallback. */
export function attachmentName(headers: Headers, fallback = ZIP_FALLBACK_NAME): string {
  const match = /filename="?([^";]+)"?/i.exec(headers.get('Content-Disposition') ?? '')
  const name = match?.[1]?.trim().replace(/[/\\]/g, '_')
  return name || fallback
}

/** Reads a response body with a reader, reporting the bytes read after every chunk. */
export async function readWithProgress(res: Response, onProgress: (p: ZipProgress) => void): Promise<Blob> {
  const total = contentLength(res.headers)
  const type = res.headers.get('Content-Type') || 'application/octet-stream'
  if (!res.body) {
    const blob = await res.blob()
    onProgress({ received: blob.size, total })
    return blob
  }
  const reader = res.body.getReader()
  const chunks: BlobPart[] = []
  let received = 0
  onProgress({ received, total })
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value as Uint8Array<ArrayBuffer>)
    received += value.byteLength
    onProgress({ received, total })
  }
  // Fewer bytes than announced: the connection broke and the archive would be unreadable.
  if (total !== null && received < total) {
    throw new ApiError(0, 'The download was interrupted. Please try again.')
  }
  return new Blob(chunks, { type })
}
