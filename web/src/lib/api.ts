/**
 * The errors the app shows, and their messages. Pure: the calls themselves are in api/ (our API
 * through api/client.ts, whose middleware turns error answers into the ApiError below with
 * readError; storage and third-party calls in api/external.ts).
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
