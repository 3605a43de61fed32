/**
 * The one module through which the app talks to the network.
 *
 * Server calls (same origin, /api and /imageedit):
 *  - add Authorization (the user token when logged in, else the guest token),
 *    x-distributor-id and x-fingerprint-id
 *  - unwrap the `{ data }` envelope
 *  - turn `{ message }` error bodies into a thrown ApiError(status, message)
 *  - on a 401 with the guest token, silently log in as guest again once and retry
 *  - on a 401 with the user token, try POST /api/v1/auth/refresh once (the
 *    refresh token is an HttpOnly cookie) and retry; if that fails, throw an
 *    ApiError with `sessionExpired` set (once per dead token). The query client
 *    (lib/queryClient) reacts to it in one place: toast 'Unauthorised' and log out.
 *
 *  - send a W3C `traceparent` (lib/traceparent), so each call's server trace starts here
 *
 * Object-storage calls (another origin, presigned URLs) deliberately send no
 * auth or tracing headers: they would break the signature and trigger CORS preflights.
 */
import {
  getDistributorId,
  getFingerprint,
  getGuestToken,
  getUserToken,
  setGuestToken,
  setUserToken,
} from './identity'
import { traceparentFor } from './traceparent'
import { IMAGE_EDIT_API_KEY, IMAGE_EDIT_TIMEOUT_MS } from '@/config'

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

type QueryValue = string | number | boolean | null | undefined
export type Query = Record<string, QueryValue>

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  query?: Query
  json?: unknown
  form?: FormData
  headers?: Record<string, string>
  signal?: AbortSignal
  /** Set false for calls made without a session (guest login, login, sign-up, OTPs). */
  auth?: boolean
  /** fetch credentials mode; same-origin by default. */
  credentials?: RequestCredentials
}

/** The message of a 401 that ended a logged-in session (spec §8). */
export const UNAUTHORISED_MESSAGE = 'Unauthorised'

const FALLBACK_MESSAGES: Record<number, string> = {
  0: "Can't reach the server. Check your connection and try again.",
  401: 'Your session has expired. Please reload the page.',
  402: 'Not enough credits for this request.',
  403: 'You are not allowed to do that.',
  404: 'Not found.',
  413: 'The file is too large.',
  422: 'The request could not be processed.',
  429: 'Too many requests. Please wait a moment and try again.',
}

function buildUrl(path: string, query?: Query): string {
  if (!query) return path
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) {
    // Empty strings are kept on purpose (e.g. `category=` means "all").
    if (v !== undefined && v !== null) params.append(k, String(v))
  }
  const qs = params.toString()
  return qs ? `${path}?${qs}` : path
}

async function readError(res: Response): Promise<ApiError> {
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
// Guest session

export interface GuestLoginResponse {
  token: string
  credits: number
}

let guestLogin: Promise<string> | null = null

/** Logs in as a guest. Concurrent callers share a single request. */
export function loginAsGuest(): Promise<string> {
  guestLogin ??= (async () => {
    const fingerprintId = getFingerprint()
    const data = await request<GuestLoginResponse>('/imageedit/users/guestlogin', {
      method: 'POST',
      json: { fingerprintId },
      auth: false,
    })
    if (!data?.token) throw new ApiError(500, 'Could not start a guest session.')
    setGuestToken(data.token)
    return data.token
  })().finally(() => {
    guestLogin = null
  })
  return guestLogin
}

/** Returns the stored guest token, creating a guest session if there is none. */
export async function ensureGuestToken(): Promise<string> {
  return getGuestToken() ?? loginAsGuest()
}

// ---------------------------------------------------------------------------
// Requests

async function send(path: string, opts: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'x-distributor-id': getDistributorId(),
    'x-fingerprint-id': getFingerprint(),
    ...opts.headers,
  }
  if (token) headers.Authorization = `Bearer ${token}`
  const imageEdit = isImageEditPath(path)
  if (imageEdit && IMAGE_EDIT_API_KEY) headers['x-api-key'] = IMAGE_EDIT_API_KEY
  // A trace starts here for our own API calls only (lib/traceparent).
  const traceparent = traceparentFor(path)
  if (traceparent && !headers.traceparent) headers.traceparent = traceparent

  let body: BodyInit | undefined
  if (opts.form) {
    body = opts.form // the browser sets the multipart boundary itself
  } else if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(opts.json)
  }

  try {
    return await fetch(buildUrl(path, opts.query), {
      method: opts.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      signal: imageEdit ? withTimeout(opts.signal, IMAGE_EDIT_TIMEOUT_MS) : opts.signal,
      credentials: opts.credentials ?? 'same-origin',
    })
  } catch (err) {
    if (err instanceof DOMException && err.name === 'TimeoutError') {
      throw new ApiError(0, 'The server took too long to answer. Please try again.')
    }
    if (isAbortError(err)) throw err
    throw new ApiError(0, FALLBACK_MESSAGES[0]!)
  }
}

/** The image edit API (spec §7): its own api key header and a 600000 ms request timeout. */
export function isImageEditPath(path: string): boolean {
  return path.startsWith('/imageedit/')
}

/** The caller's signal (if any) combined with a deadline. */
function withTimeout(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const deadline = AbortSignal.timeout(ms)
  return signal ? AbortSignal.any([signal, deadline]) : deadline
}

// ---------------------------------------------------------------------------
// User session expiry

let refreshing: Promise<string | null> | null = null

/**
 * Asks for a new access token with the HttpOnly refresh cookie. Concurrent
 * callers share one request. Resolves to the new token, or null when the
 * session cannot be renewed (no cookie, revoked, network error).
 */
export function refreshUserToken(): Promise<string | null> {
  refreshing ??= (async () => {
    const token = await requestAccessToken()
    // Logged out while the refresh was under way: do not bring the session back.
    if (!token || !getUserToken()) return null
    setUserToken(token)
    return token
  })().finally(() => {
    refreshing = null
  })
  return refreshing
}

/** POST /api/v1/auth/refresh with the cookie; the new access token, or null. Stores nothing. */
export async function requestAccessToken(): Promise<string | null> {
  try {
    const res = await send('/api/v1/auth/refresh', { method: 'POST', json: {}, credentials: 'include' }, null)
    if (!res.ok) return null
    const token = unwrap<{ token?: unknown }>(await res.json())?.token
    return typeof token === 'string' && token ? token : null
  } catch {
    return null
  }
}

let expiredToken: string | null = null

/** Whether this failure ends the session: only the token still in use does, and only once
 *  (many calls may fail at the same time with the same dead token). */
function firstExpiry(failedToken: string): boolean {
  if (getUserToken() !== failedToken || expiredToken === failedToken) return false
  expiredToken = failedToken
  return true
}

function unwrap<T>(payload: unknown): T {
  if (payload && typeof payload === 'object' && 'data' in payload) {
    return (payload as { data: T }).data
  }
  return payload as T
}

/**
 * A server call with the same headers, session renewal and error handling as `request`, that
 * answers the Response itself: for bodies read as a stream (a ZIP with download progress).
 */
export async function requestResponse(path: string, opts: RequestOptions = {}): Promise<Response> {
  const useAuth = opts.auth !== false
  const userToken = useAuth ? getUserToken() : null
  let token = userToken ?? (useAuth ? await ensureGuestToken() : null)
  let res = await send(path, opts, token)

  if (res.status === 401 && useAuth) {
    if (userToken) {
      // The access token expired: renew it once with the refresh cookie (or
      // take the one another call just renewed) and replay the request.
      const current = getUserToken()
      const fresh = current && current !== userToken ? current : await refreshUserToken()
      if (fresh) res = await send(path, opts, fresh)
      if (res.status === 401) {
        throw new ApiError(401, UNAUTHORISED_MESSAGE, null, firstExpiry(fresh ?? userToken))
      }
    } else {
      // Guest tokens expire or get revoked (e.g. a server reset). Re-login once,
      // without bothering the user, and replay the same request (same headers,
      // so an Idempotency-Key is reused too).
      setGuestToken(null)
      token = await loginAsGuest()
      res = await send(path, opts, token)
    }
  }

  if (!res.ok) throw await readError(res)
  return res
}

export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await requestResponse(path, opts)
  if (res.status === 204) return undefined as T

  let payload: unknown
  try {
    payload = await res.json()
  } catch {
    throw new ApiError(res.status, 'The server sent an unreadable response.')
  }
  return unwrap<T>(payload)
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) =>
    request<T>(path, { method: 'GET', query, signal }),
  post: <T>(path: string, json?: unknown, opts: Omit<RequestOptions, 'json' | 'method'> = {}) =>
    request<T>(path, { ...opts, method: 'POST', json: json ?? {} }),
  postForm: <T>(path: string, form: FormData, opts: Omit<RequestOptions, 'form' | 'method'> = {}) =>
    request<T>(path, { ...opts, method: 'POST', form }),
  patch: <T>(path: string, json?: unknown, opts: Omit<RequestOptions, 'json' | 'method'> = {}) =>
    request<T>(path, { ...opts, method: 'PATCH', json: json ?? {} }),
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
