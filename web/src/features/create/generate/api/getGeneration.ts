import { useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import { generationQueryKey } from '@/api/queryKeys'
import { POLL_INTERVAL_MS } from '@/config'
import type { Generation } from '@/types/api'
import { generationSettled } from '../generations'

/** How often the output page asks again while the generation is still going. */
export const GENERATION_REFRESH_MS = Math.max(POLL_INTERVAL_MS, 1500)

export function getGeneration(generationId: string, signal?: AbortSignal): Promise<Generation> {
  return unwrap(client.GET('/imageedit/service/{service_id}', { params: { path: { service_id: generationId } }, signal }))
}

/**
 * One generation as the server has it (so a reload, another tab or another device show the
 * same results), refreshed until it has settled. Output links are short-lived presigned URLs:
 * the query also refetches when the window regains focus.
 */
export function useGeneration(generationId: string) {
  return useQuery({
    queryKey: generationQueryKey(generationId),
    queryFn: ({ signal }) => getGeneration(generationId, signal),
    refetchInterval: (query) => (query.state.data && !generationSettled(query.state.data) ? GENERATION_REFRESH_MS : false),
  })
}
