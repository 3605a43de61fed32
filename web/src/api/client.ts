/**
 * The web app's one data layer, and the rule that keeps it one (ESLint enforces the imports):
 *
 *  - every server call is written once, in the api/ folder of the feature that makes it: one
 *    file per call with its fetcher, its query options and its hook (`features/<name>/api/`)
 *  - what several features (or the shared layers: app/, components/, hooks/) read lives beside
 *    this client in src/api, in the same shape: the credit balance (the menu, generate, pricing),
 *    who the user is (the settings page and every page's admin menu), the site config (start-up,
 *    upload, help), the subscription (billing, dashboard, pricing) and the ZIP of chosen images
 *    (My Images and the output page). A read moves here when a second feature needs it.
 *  - only those two places import this client; lib/ holds pure helpers and calls no server
 *  - calls to other origins (object storage's presigned URLs, Google's user info) are in
 *    api/external.ts, without the client: they must not carry our headers
 *
 * The typed client of our API (same origin, /api and /imageedit), over the `paths` generated
 * from the server's OpenAPI document: a call's path, parameters, body and answer are checked
 * against it. Its middleware does what every server call needs:
 *
 *  - add Authorization (the user token when logged in, else the guest token, logging in as a
 *    guest first when there is none), x-distributor-id and x-fingerprint-id; the image edit
 *    API's x-api-key; a W3C `traceparent` (lib/traceparent) so each call's server trace
 *    starts here
 *  - on a 401 with the guest token, silently log in as guest again once and retry
 *  - on a 401 with the user token, try POST /api/v1/auth/refresh once (the refresh token is
 *    an HttpOnly cookie) and retry; if that fails, throw an ApiError with `sessionExpired`
 *    set (once per dead token). The query client (lib/queryClient) reacts to it in one
 *    place: toast 'Unauthorised' and log out.
 *  - turn error answers into a thrown ApiError (lib/api readError), and unreadable JSON too
 *
 * The `{ data }` envelope is opened by `unwrap` (openapi-fetch's types follow the document,
 * which has the envelope): `unwrap(client.GET('/api/v1/model', ...))` is the model page.
 *
 * The requests themselves are sent by `send` below, as plain `fetch(path, init)` calls (the
 * path relative, the headers a record, the body as given), with the image edit API's deadline
 * and network failures turned into an ApiError a person understands.
 */
import createClient, { type Middleware } from 'openapi-fetch'
import { IMAGE_EDIT_API_KEY, IMAGE_EDIT_TIMEOUT_MS } from '@/config'
import { ApiError, FALLBACK_MESSAGES, isAbortError, readError, UNAUTHORISED_MESSAGE } from '@/lib/api'
import {
  distributorOf,
  getDistributorId,
  getFingerprint,
  getGuestToken,
  getUserToken,
  setGuestFreeCreditsWithheld,
  setGuestToken,
  setUserToken,
} from '@/lib/identity'
import { traceparentFor } from '@/lib/traceparent'
import type { ApiData } from '@/types/api'
import type { paths } from '@/types/openapi.gen'

// ---------------------------------------------------------------------------
// Requests and their transport

/**
 * openapi-fetch's Request, remembering what it was made from: the URL as written (relative,
 * with its query) and the init (the caller's signal, the body as serialized). The transport
 * sends exactly that, and the session middleware can replay it after a renewal.
 */
export class ApiRequest extends Request {
  readonly target: string
  readonly init: RequestInit

  constructor(input: RequestInfo | URL, init: RequestInit = {}) {
    super(input, init)
    this.target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    this.init = init
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

/** Headers lower-case their names; these are sent as they are usually written. */
const HEADER_NAMES: Record<string, string> = {
  accept: 'Accept',
  authorization: 'Authorization',
  'content-type': 'Content-Type',
  'idempotency-key': 'Idempotency-Key',
}

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {}
  headers.forEach((value, name) => {
    record[HEADER_NAMES[name] ?? name] = value
  })
  return record
}

/** Query strings as URLSearchParams writes them; null and undefined are left out, but empty
 *  strings are kept on purpose (e.g. `category=` means "all"). */
function serializeQuery(query: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(name, String(value))
  }
  return params.toString()
}

/** The path of a request as the app wrote it (relative for our API). */
function pathOf(request: Request): string {
  return request instanceof ApiRequest ? request.target : request.url
}

/**
 * Sends a request (the client's `fetch`). POST and PATCH always carry a JSON body (`{}` when
 * the operation takes none), as the server's handlers expect.
 */
export async function send(request: Request): Promise<Response> {
  const path = pathOf(request)
  const init = request instanceof ApiRequest ? request.init : {}
  const headers = headerRecord(request.headers)
  let body = init.body ?? undefined
  if (body instanceof FormData) {
    // The Request built around it wrote a multipart boundary into its content type; fetch
    // serialises the form again with a boundary of its own, and sets the header for it.
    delete headers['Content-Type']
  }
  if (body === undefined && (request.method === 'POST' || request.method === 'PATCH')) {
    headers['Content-Type'] = 'application/json'
    body = '{}'
  }
  const signal = init.signal ?? undefined
  try {
    return await fetch(path, {
      method: request.method,
      headers,
      body,
      signal: isImageEditPath(path) ? withTimeout(signal, IMAGE_EDIT_TIMEOUT_MS) : signal,
      credentials: init.credentials ?? 'same-origin',
    })
  } catch (err) {
    if (err instanceof DOMException && err.name === 'TimeoutError') {
      throw new ApiError(0, 'The server took too long to answer. Please try again.')
    }
    if (isAbortError(err)) throw err
    throw new ApiError(0, FALLBACK_MESSAGES[0]!)
  }
}

// ---------------------------------------------------------------------------
// The session middleware

/**
 * Calls made without a session: no Authorization and no renewal on a 401. The auth calls
 * (x-fingerprint-id lets the server move a guest's generations to the account), the guest
 * login itself, and the public config and showcase, which a visitor needs no session for.
 */
const NO_SESSION_PATHS: ReadonlySet<string> = new Set<keyof paths>([
  '/api/v1/auth/login',
  '/api/v1/auth/signup',
  '/api/v1/auth/externalLogin',
  '/api/v1/auth/generateSignupOTP',
  '/api/v1/auth/verifySignupOTP',
  '/api/v1/auth/generateResetPasswordOTP',
  '/api/v1/auth/verifyResetPasswordOTP',
  '/api/v1/auth/resetPassword',
  '/api/v1/auth/logout',
  '/api/v1/auth/refresh',
  '/imageedit/users/guestlogin',
  '/api/v1/config',
  '/imageedit/service/showCaseFromS3',
])

export function usesSession(schemaPath: string): boolean {
  return !NO_SESSION_PATHS.has(schemaPath)
}

/**
 * Reads a visitor makes while looking around (the catalog of models, backgrounds and samples),
 * which the server answers without a session: sent with the session's token when there is
 * one, and without when there is none, so browsing never starts a guest session. A guest is
 * started by the first call that needs one (an upload, a generation, the guest's balance):
 * each new guest may take one of the network's few free grants a day.
 */
const VISITOR_PATHS: ReadonlySet<string> = new Set<keyof paths>([
  '/api/v1/model',
  '/api/v1/model/categories',
  '/api/v1/model/filters',
  '/imageedit/seed',
  '/api/v1/sample',
  // Anyone may check an image (/verify); a visitor's check starts no guest session.
  '/api/v1/provenance',
  // The plans (no login needed): /subscription asks for them at once instead of after a guest
  // login, a round trip before the page could show anything on a phone (issue 39).
  '/api/v1/pricing',
])

/** The user token a request was sent with (null: the guest's, or none). */
const sentUserToken = new WeakMap<Request, string | null>()

/** The app's headers; the caller's own win, except Authorization when there is a token. */
function addHeaders(request: Request, token: string | null): void {
  const headers = request.headers
  const path = pathOf(request)
  if (!headers.has('Accept')) headers.set('Accept', 'application/json')
  // A session speaks for the distributor it was issued for, whatever link opened this tab (a
  // partner's visitor in a second tab, or a user signed up elsewhere following a partner link);
  // the tab's own id counts where there is no session yet.
  if (!headers.has('x-distributor-id')) {
    headers.set('x-distributor-id', (token && distributorOf(token)) || getDistributorId())
  }
  if (!headers.has('x-fingerprint-id')) headers.set('x-fingerprint-id', getFingerprint())
  if (token) headers.set('Authorization', `Bearer ${token}`)
  if (isImageEditPath(path) && IMAGE_EDIT_API_KEY) headers.set('x-api-key', IMAGE_EDIT_API_KEY)
  // A trace starts here for our own API calls only (lib/traceparent).
  const traceparent = traceparentFor(path)
  if (traceparent && !headers.has('traceparent')) headers.set('traceparent', traceparent)
}

/**
 * Before a request: the session's token (a guest session is started when there is none,
 * except for a visitor's reads, which go without).
 */
async function prepare(request: Request, schemaPath: string): Promise<void> {
  const session = usesSession(schemaPath)
  const userToken = session ? getUserToken() : null
  const guest = () => (VISITOR_PATHS.has(schemaPath) ? getGuestToken() : ensureGuestToken())
  const token = userToken ?? (session ? await guest() : null)
  sentUserToken.set(request, userToken)
  addHeaders(request, token)
}

/** The same request again (same headers, so an Idempotency-Key is reused) with another token. */
function resend(request: Request, token: string): Promise<Response> {
  const again = request instanceof ApiRequest ? new ApiRequest(request.target, request.init) : request.clone()
  addHeaders(again, token)
  return send(again)
}

/**
 * After the answer: renew the session on a 401 and replay once, throw an ApiError for an
 * answer that is not ok, and for JSON that cannot be read.
 */
async function settle(request: Request, response: Response, schemaPath: string, json: boolean): Promise<Response> {
  let res = response
  if (res.status === 401 && usesSession(schemaPath)) {
    const userToken = sentUserToken.get(request) ?? null
    if (userToken) {
      // The access token expired: renew it once with the refresh cookie (or
      // take the one another call just renewed) and replay the request.
      const current = getUserToken()
      const fresh = current && current !== userToken ? current : await refreshUserToken()
      if (fresh) res = await resend(request, fresh)
      if (res.status === 401) {
        throw new ApiError(401, UNAUTHORISED_MESSAGE, null, firstExpiry(fresh ?? userToken))
      }
    } else {
      // Guest tokens expire or get revoked (e.g. a server reset). Re-login once,
      // without bothering the user, and replay the same request.
      setGuestToken(null)
      res = await resend(request, await loginAsGuest())
    }
  }

  if (!res.ok) throw await readError(res)
  if (json && res.status !== 204) {
    try {
      JSON.parse(await res.clone().text())
    } catch {
      throw new ApiError(res.status, 'The server sent an unreadable response.')
    }
  }
  return res
}

export const sessionMiddleware: Middleware = {
  async onRequest({ request, schemaPath }) {
    await prepare(request, schemaPath)
  },
  async onResponse({ request, response, schemaPath, options }) {
    return settle(request, response, schemaPath, options.parseAs === 'json')
  },
}

export const client = createClient<paths>({
  Request: ApiRequest,
  fetch: send,
  querySerializer: serializeQuery,
})
client.use(sessionMiddleware)

/**
 * A server call to a URL the server gave (not a path of the document, e.g. an invoice link),
 * with the same headers, session renewal and error handling as the client: the Response
 * itself, for bodies read as a file or a stream.
 */
export async function sendWithSession(url: string, init: { headers?: Record<string, string>; signal?: AbortSignal } = {}) {
  const request = new ApiRequest(url, { method: 'GET', headers: init.headers, signal: init.signal })
  await prepare(request, url)
  return settle(request, await send(request), url, false)
}

/**
 * A multipart upload of a file, outside the typed client: the document types the file part as
 * a string, so the body cannot be checked against it. Same middleware steps as the client;
 * the answer is the 200 payload of `schemaPath` (`url` is that path with its parameters).
 */
export async function postForm<P extends keyof paths>(schemaPath: P, url: string, form: FormData): Promise<ApiData<P, 'post'>> {
  const request = new ApiRequest(url, { method: 'POST', body: form })
  await prepare(request, schemaPath)
  const res = await settle(request, await send(request), schemaPath, true)
  const payload: unknown = await res.json()
  return openEnvelope(payload) as ApiData<P, 'post'>
}

// ---------------------------------------------------------------------------
// The `{ data }` envelope

/** The payload inside `{ data }` (answers without the envelope are their own payload). */
export type Unwrapped<T> = T extends { data: infer D } ? D : T

/** Opens the envelope of a JSON payload. */
export function openEnvelope<T>(payload: T): Unwrapped<T> {
  if (payload && typeof payload === 'object' && 'data' in payload) return payload.data as Unwrapped<T>
  return payload as Unwrapped<T>
}

/**
 * The answer of a client call, out of its `{ data }` envelope. Error answers never get here
 * (the middleware throws them as ApiError); a 204 gives undefined.
 */
export async function unwrap<T>(call: Promise<{ data?: T; response: Response }>): Promise<Unwrapped<T>> {
  const { data, response } = await call
  if (!response.ok) throw await readError(response)
  return openEnvelope(data as T)
}

// ---------------------------------------------------------------------------
// Guest session

let guestLogin: Promise<string> | null = null

/** Logs in as a guest. Concurrent callers share a single request. */
export function loginAsGuest(): Promise<string> {
  guestLogin ??= (async () => {
    const fingerprintId = getFingerprint()
    const data = await unwrap(client.POST('/imageedit/users/guestlogin', { body: { fingerprintId } }))
    if (!data?.token) throw new ApiError(500, 'Could not start a guest session.')
    setGuestToken(data.token)
    setGuestFreeCreditsWithheld(Boolean(data.freeCreditsWithheld))
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
    const data = await unwrap(client.POST('/api/v1/auth/refresh', { credentials: 'include' }))
    const token: unknown = data?.token
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
