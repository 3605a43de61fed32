// The plans of a catalogue, priced for the visitor.
import type { ApiQuery } from '@/types/api'
import { client, unwrap } from './client'

/** x-timezone (the browser's time zone) lets the server pick INR for visitors from India. */
export function getPricing(query: ApiQuery<'/api/v1/pricing', 'get'>, timeZone: string | null | undefined, signal?: AbortSignal) {
  return unwrap(
    client.GET('/api/v1/pricing', {
      params: { query },
      signal,
      headers: timeZone ? { 'x-timezone': timeZone } : undefined,
    }),
  )
}
