/**
 * Errors the app shows, and the calls that do not go to our API.
 *
 * Our API (same origin, /api and /imageedit) is called through the typed openapi-fetch client
 * in api/client.ts: its middleware adds the session and tracing headers, renews the session on
 * a 401 and turns error answers into the ApiError below (readError), with these messages.
 *
 * Object-storage calls (another origin, presigned URLs) and third-party JSON APIs deliberately
 * send no auth or tracing headers: they would break the signature and trigger CORS preflights.
 */

export class ApiError extends Error {
  readonly status: number
  /** The `message` the server sent, when it sent one (no fallback text). */
  readonly serverMessage: string | null
  /** A 401 the refresh cookie could not fix: the user session is over (set once per dead token). */
  readonly sessionExpired: boolean

  constructor(status: number, message: string, serverMessage: string | null = null, sessionExpired = false) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.serverMessage = serverMessage
    this.sessionExpired = sessionExpired
  }
}

/** Whether an error means the logged-in session has ended (see ApiError.sessionExpired). */
export function isSessionExpired(err: unknown): boolean {
  return err instanceof ApiError && err.sessionExpired
}

export function isAbortError(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError'
}

/** A message that is safe to show to the user for any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message
  if (err instanceof Error && err.message) return err.message
  return 'Something went wrong. Please try again.'
}

/** The message of a 401 that ended a logged-in session (spec §8). */
export const UNAUTHORISED_MESSAGE = 'Unauthorised'

export const FALLBACK_MESSAGES: Record<number, string> = {
  0: "Can't reach the server. Check your connection and try again.",
  401: 'Your session has expired. Please reload the page.',
  402: 'Not enough credits for this request.',
  403: 'You are not allowed to do that.',
  404: 'Not found.',
  413: 'The file is too large.',
  422: 'The request could not be processed.',
  429: 'Too many requests. Please wait a moment and try again.',
}

/** The ApiError for an answer that is not ok: the server's `message` (or `detail`), else a fallback. */
export async function readError(res: Response): Promise<ApiError> {
  let message = ''
  try {
    const text = await res.text()
    try {
      const body = JSON.parse(text) as { message?: unknown; detail?: unknown }
      if (typeof body.message === 'string') message = body.message
      else if (typeof body.detail === 'string') message = body.detail
    } catch {
      // Non-JSON error pages (proxies, gateways) are not useful to show.
    }
  } catch {
    /* body unreadable */
  }
  const fallback = FALLBACK_MESSAGES[res.status] ?? `Request failed (${res.status}). Please try again.`
  return new ApiError(res.status, message || fallback, message || null)
}

// ---------------------------------------------------------------------------
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
