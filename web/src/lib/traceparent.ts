/**
 * W3C Trace Context for the app's own API calls (spec §9): each call to /api or /imageedit on
 * this origin carries a `traceparent`, so the server's trace of it (and of the generation it
 * starts) begins in the browser; the server answers with the trace id in `traceresponse`.
 * Never sent anywhere else (object storage's presigned URLs, Google).
 *
 * With Sentry on (lib/monitoring), Sentry's own browser tracing sets the header instead, so the
 * browser's spans and the server's share one trace.
 */

let delegated = false

/** Sentry's tracing writes `traceparent` from now on (see lib/monitoring). */
export function delegateTraceparent(): void {
  delegated = true
}

function randomHex(bytes: number): string {
  const values = new Uint8Array(bytes)
  do {
    crypto.getRandomValues(values)
  } while (values.every((v) => v === 0)) // all zeros is an invalid id
  return Array.from(values, (v) => v.toString(16).padStart(2, '0')).join('')
}

/** A new sampled `traceparent`: version 00, a random 16-byte trace id and 8-byte span id, flags 01. */
export function newTraceparent(): string {
  return `00-${randomHex(16)}-${randomHex(8)}-01`
}

/** Whether `path` is a call to our own API on this origin (relative /api/ or /imageedit/). */
export function isOwnApiPath(path: string): boolean {
  return path.startsWith('/api/') || path.startsWith('/imageedit/')
}

/** The `traceparent` for a request to `path`, or null when none should be sent by us. */
export function traceparentFor(path: string): string | null {
  return !delegated && isOwnApiPath(path) ? newTraceparent() : null
}
