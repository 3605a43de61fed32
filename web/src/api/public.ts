// Public calls, sent without a session (a visitor needs none): the server's config and the
// curated showcase.
import type { ApiQuery } from '@/types/api'
import { client, unwrap } from './client'

export function getSiteConfig(signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/config', { signal }))
}

export function getShowcase(query: ApiQuery<'/imageedit/service/showCaseFromS3', 'get'>, signal?: AbortSignal) {
  return unwrap(client.GET('/imageedit/service/showCaseFromS3', { params: { query }, signal }))
}
