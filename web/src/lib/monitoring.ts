/**
 * Browser monitoring (spec §9) with @sentry/react, on only when VITE_SENTRY_DSN is set at build
 * time. The SDK is loaded lazily so a build without a DSN ships none of it in the main bundle.
 *
 * Traces: every page load and navigation (sample rate 1). Replays: 10% of ordinary sessions,
 * every session that hits an error. Tracing headers go only to localhost and this app's own
 * origin, never to object storage (that would break presigned URLs) or to Google.
 */
import { delegateTraceparent } from './traceparent'
import { SENTRY_DSN, SENTRY_ENVIRONMENT } from '@/config'

export interface MonitoringOptions {
  dsn: string
  environment: string
  origin: string
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The options the spec fixes, in one place (tested). */
export function sentryOptions({ dsn, environment, origin }: MonitoringOptions) {
  return {
    dsn,
    environment,
    tracesSampleRate: 1,
    replaysSessionSampleRate: 0.1,
    replaysOnErrorSampleRate: 1,
    // W3C traceparent too (the server reads only that), beside sentry-trace and baggage.
    propagateTraceparent: true,
    tracePropagationTargets: [
      // Our API on localhost (development), relative API calls, and the app's own origin.
      /^https?:\/\/localhost(:\d+)?\/(api|imageedit)\//,
      /^\/(?!\/)/,
      new RegExp(`^${escapeRegExp(origin)}/`),
    ],
  }
}

export async function startMonitoring(dsn: string = SENTRY_DSN): Promise<boolean> {
  if (!dsn) return false
  const Sentry = await import('@sentry/react')
  Sentry.init({
    ...sentryOptions({
      dsn,
      environment: SENTRY_ENVIRONMENT,
      origin: window.location.origin,
    }),
    integrations: [Sentry.browserTracingIntegration(), Sentry.replayIntegration()],
  })
  delegateTraceparent()
  return true
}
