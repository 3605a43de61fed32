import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import { LONG_POLL_WAIT_MS, POLL_INTERVAL_MS } from '@/config'
import { invalidateCredits } from '@/api/credits'
import { shouldRetry } from '@/lib/queryClient'
import type { FlowGeneration } from '@/features/create/store'
import type { GenerationImage } from '@/types/api'
import { generationFinished, mergeImages, queuedImage, imageState } from '../generations'

/** The longest pause between polls after errors. */
const MAX_BACKOFF_MS = 10_000

/**
 * The images' status. With `since` (what the page shows now) the server answers as soon as
 * something differs from it, or after `waitMs`: a long poll.
 */
export function pollImages(
  imageIds: string[],
  signal?: AbortSignal,
  since?: string,
  waitMs = LONG_POLL_WAIT_MS,
): Promise<GenerationImage[]> {
  // The ids go as a JSON array; without `since` it is a plain read.
  const query = { taskIds: JSON.stringify(imageIds), ...(since === undefined ? {} : { since, waitMs }) }
  return unwrap(client.GET('/api/v1/task/pollTasks', { params: { query }, signal }))
}

export interface ImageSnapshot {
  images: GenerationImage[]
  /** Something moved since the previous snapshot (so ask again at once). */
  changed: boolean
}

/**
 * The query that holds a generation's images. The query cache is the only place the state of
 * a generation's images is kept (the flow store keeps the generation's ids, not its images).
 */
export function imagesQueryKey(generationId: string) {
  return ['images', generationId] as const
}

function knownImages(queryClient: QueryClient, generationId: string): GenerationImage[] {
  return queryClient.getQueryData<ImageSnapshot>(imagesQueryKey(generationId))?.images ?? []
}

/** Records the images as the server reported them elsewhere (the output page), in the generation's order. */
export function rememberImages(queryClient: QueryClient, generation: FlowGeneration, fresh: GenerationImage[]): void {
  const known = knownImages(queryClient, generation.id)
  queryClient.setQueryData<ImageSnapshot>(imagesQueryKey(generation.id), {
    images: mergeImages(generation.imageIds, known, fresh),
    changed: false,
  })
}

/** The delay before the next poll: at once after a change (the server holds the
 *  request until the next one), a short pause when the wait ran out, and a
 *  back-off after errors. None while a poll is under way. */
export function nextPollDelay(state: {
  fetchStatus: string
  status: string
  data?: ImageSnapshot
  errorUpdateCount: number
}): number | false {
  if (state.fetchStatus !== 'idle') return false
  if (state.status === 'error') return Math.min(POLL_INTERVAL_MS * 2 ** state.errorUpdateCount, MAX_BACKOFF_MS)
  return state.data?.changed ? 1 : POLL_INTERVAL_MS
}

/**
 * Follows a generation's images with long polls, as a query that refetches itself until
 * every image is completed or failed. Network and server errors are retried with
 * a back-off (failureCount tells how many in a row). Until the first answer the images
 * show as queued (placeholder data, `isPlaceholderData`).
 */
export function useImagePolling(generation: FlowGeneration | null) {
  const queryClient = useQueryClient()
  const generationId = generation?.id ?? ''
  const imageIds = generation?.imageIds ?? []
  const settled = (data: ImageSnapshot | undefined) => generationFinished(data?.images ?? [])
  return useQuery({
    queryKey: imagesQueryKey(generationId),
    // Finished images do not change any more: no poll for them, not even on mount.
    enabled: (query) => Boolean(generation) && !settled(query.state.data),
    queryFn: async ({ signal }): Promise<ImageSnapshot> => {
      const known = knownImages(queryClient, generationId)
      const since = imageState(imageIds, known)
      const fresh = await pollImages(imageIds, signal, since)
      const images = mergeImages(imageIds, knownImages(queryClient, generationId), fresh)
      // Failed images may be refunded: show the real balance once the generation has ended.
      if (generationFinished(images) && !generationFinished(known)) void invalidateCredits()
      return { images, changed: imageState(imageIds, images) !== since }
    },
    placeholderData: { images: imageIds.map(queuedImage), changed: false },
    staleTime: 0,
    refetchInterval: (query) => (settled(query.state.data) ? false : nextPollDelay(query.state)),
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    retry: (failureCount, err) => shouldRetry(failureCount, err, Number.POSITIVE_INFINITY),
    retryDelay: (attempt) => Math.min(POLL_INTERVAL_MS * 2 ** attempt, MAX_BACKOFF_MS),
  })
}
