import type { FlowGeneration } from '@/features/create/store'
import type { GenerationImage } from '@/types/api'
import { useImagePolling } from '../api/pollImages'
import { generationFinished } from '../generations'

export interface GenerationProgress {
  /** The generation's images, from the query cache (queued until the first poll answers). */
  images: GenerationImage[]
  /** False while the images shown are only placeholders (before the first poll answered). */
  known: boolean
  /** True until every image is completed or failed. */
  running: boolean
  /** A connection warning when polls keep failing. */
  warning: string | null
}

/**
 * Follows the generation's images (useImagePolling) until every image is completed or
 * failed. The images live in the query cache only, so a reload asks the server again.
 */
export function useGenerationPolling(generation: FlowGeneration | null): GenerationProgress {
  const poll = useImagePolling(generation)
  const images = generation ? (poll.data?.images ?? []) : []
  const running = generation ? !generationFinished(images) : false
  const failing = poll.failureCount >= 3 || poll.isError
  return {
    images,
    known: Boolean(generation) && !poll.isPlaceholderData && poll.data !== undefined,
    running,
    warning: running && failing ? 'Connection problem while checking progress. Still trying…' : null,
  }
}
