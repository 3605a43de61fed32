/**
 * The calls that do not go to our API: object storage (another origin, presigned URLs) and
 * third-party JSON APIs (Google's user info). They deliberately send no auth or tracing
 * headers: those would break the signature and trigger CORS preflights. Failures are the same
 * ApiError as our API's, with messages a person understands.
 */
import { downloadName, saveBlob } from '@/lib/download'
import { ApiError, FALLBACK_MESSAGES, isAbortError } from '@/lib/api'

// Third-party JSON APIs (another origin, e.g. Google's user-info endpoint)

/** GET of a JSON document on another origin with a bearer token, no app headers or cookies. */
export async function getExternalJson<T>(url: string, bearer: string, signal?: AbortSignal): Promise<T> {
  let res: Response
  try {
    res = await fetch(url, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${bearer}` },
      credentials: 'omit',
      signal,
    })
  } catch (err) {
    if (isAbortError(err)) throw err
    throw new ApiError(0, FALLBACK_MESSAGES[0]!)
  }
  if (!res.ok) throw new ApiError(res.status, `Request failed (${res.status}). Please try again.`)
  try {
    return (await res.json()) as T
  } catch {
    throw new ApiError(res.status, 'The server sent an unreadable response.')
  }
}

// ---------------------------------------------------------------------------
// Object storage (presigned URLs on another origin)

/**
 * PUTs a file to a presigned URL. XMLHttpRequest rather than fetch because
 * fetch has no upload progress events.
 */
export function putToStorage(
  url: string,
  file: Blob,
  contentType: string,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', url)
    xhr.setRequestHeader('Content-Type', contentType)
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total)
    }
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1)
        resolve()
      } else {
        reject(new ApiError(xhr.status, `Upload to storage failed (${xhr.status}). Please try again.`))
      }
    }
    xhr.onerror = () => reject(new ApiError(0, 'Upload failed: the storage server could not be reached.'))
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'))
    signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(file)
  })
}

/** Downloads a storage URL as a Blob (storage allows CORS from the app origin). */
export async function fetchBlob(url: string, signal?: AbortSignal): Promise<Blob> {
  let res: Response
  try {
    res = await fetch(url, { signal, mode: 'cors', credentials: 'omit' })
  } catch (err) {
    if (isAbortError(err)) throw err
    throw new ApiError(0, 'Download failed: the file could not be reached.')
  }
  if (!res.ok) throw new ApiError(res.status, `Download failed (${res.status}).`)
  return res.blob()
}

/**
 * Saves a remote file. The `download` attribute is ignored for cross-origin
 * hrefs, so fetch the bytes first and link to a same-origin object URL.
 */
export async function downloadFile(url: string, baseName: string, key?: string): Promise<void> {
  const blob = await fetchBlob(url)
  saveBlob(blob, downloadName(baseName, key ?? url, blob.type))
}
