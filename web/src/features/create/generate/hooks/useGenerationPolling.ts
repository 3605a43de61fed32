import type { FlowGeneration } from '@/features/create/store'
import type { GenerationImage } from '@/types/api'
import { useImagePolling } from '../api/pollImages'
import { generationFinished } from '../generations'

export interface GenerationProgress {
  /** The generation's tasks, from the query cache (queued until the first poll answers). */
  tasks: GenerationImage[]
  /** False while the tasks shown are only placeholders (before the first poll answered). */
  known: boolean
  /** True until every task is completed or failed. */
  running: boolean
  /** A connection warning when polls keep failing. */
  warning: string | null
}

/**
 * Follows the generation's tasks (useImagePolling) until every task is completed or
 * failed. The tasks live in the query cache only, so a reload asks the server again.
 */
export function useGenerationPolling(generation: FlowGeneration | null): GenerationProgress {
  const poll = useImagePolling(generation)
  const tasks = generation ? (poll.data?.tasks ?? []) : []
  const running = generation ? !generationFinished(tasks) : false
  const failing = poll.failureCount >= 3 || poll.isError
  return {
    tasks,
    known: Boolean(generation) && !poll.isPlaceholderData && poll.data !== undefined,
    running,
    warning: running && failing ? 'Connection problem while checking progress. Still trying…' : null,
  }
}
