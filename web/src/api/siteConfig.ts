/**
 * The server's limits and switches (GET /api/v1/config): the one source of truth for the
 * numbers the web app checks and quotes (upload size and types, the FAQ). Fetched once at
 * start-up and cached; until it arrives (or if it cannot be had) the server's defaults below
 * apply, and the server checks every upload anyway.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { ACCEPTED_IMAGE_TYPES, MAX_UPLOAD_BYTES } from '@/config'
import { queryClient } from '@/lib/queryClient'
import type { AppConfig } from '@/types/api'
import { client, unwrap } from './client'

export function getSiteConfig(signal?: AbortSignal): Promise<AppConfig> {
  return unwrap(client.GET('/api/v1/config', { signal }))
}

export const siteConfigQueryOptions = queryOptions({
  queryKey: ['siteConfig'],
  queryFn: ({ signal }) => getSiteConfig(signal),
  staleTime: 10 * 60 * 1000,
})

export function useSiteConfig() {
  return useQuery(siteConfigQueryOptions)
}

/** Starts loading the config in the background (bootstrap). */
export function prefetchSiteConfig(): void {
  void queryClient.prefetchQuery(siteConfigQueryOptions)
}

export interface UploadLimits {
  maxBytes: number
  acceptedTypes: readonly string[]
}

/** The limits in force now: the server's when known, its defaults until then. */
export function uploadLimits(): UploadLimits {
  const config = queryClient.getQueryData(siteConfigQueryOptions.queryKey)
  return {
    maxBytes: config?.maxUploadBytes ?? MAX_UPLOAD_BYTES,
    acceptedTypes: config?.acceptedTypes.length ? config.acceptedTypes : ACCEPTED_IMAGE_TYPES,
  }
}
