import { useQuery } from '@tanstack/react-query'
import { LONG_POLL_WAIT_MS, POLL_INTERVAL_MS } from '@/config'
import * as tasksApi from '@/api/tasks'
import { shouldRetry } from '@/lib/queryClient'
import { appStore } from '@/stores/appStore'
import { stepsFlowAtom, type FlowGeneration } from '@/stores/stepsFlow'
import type { Task } from '@/types/api'
import { generationFinished, mergeTasks, taskState } from '../generations'

/** The longest pause between polls after errors. */
const MAX_BACKOFF_MS = 10_000

/**
 * Task status. With `since` (what the page shows now) the server answers as soon as
 * something differs from it, or after `waitMs`: a long poll.
 */
export function pollTasks(
  taskIds: string[],
  signal?: AbortSignal,
  since?: string,
  waitMs = LONG_POLL_WAIT_MS,
): Promise<Task[]> {
  return tasksApi.pollTasks(taskIds, signal, since, waitMs)
}

export interface TaskSnapshot {
  tasks: Task[]
  /** Something moved since the previous snapshot (so ask again at once). */
  changed: boolean
}

function latestGeneration(serviceId: string): FlowGeneration | undefined {
  return appStore.get(stepsFlowAtom).stepGenerateImage.generatedResponse.find((g) => g.serviceId === serviceId)
}

/** The delay before the next poll: at once after a change (the server holds the
 *  request until the next one), a short pause when the wait ran out, and a
 *  back-off after errors. None while a poll is under way. */
export function nextPollDelay(state: {
  fetchStatus: string
  status: string
  data?: TaskSnapshot
  errorUpdateCount: number
}): number | false {
  if (state.fetchStatus !== 'idle') return false
  if (state.status === 'error') return Math.min(POLL_INTERVAL_MS * 2 ** state.errorUpdateCount, MAX_BACKOFF_MS)
  return state.data?.changed ? 1 : POLL_INTERVAL_MS
}

/**
 * Follows a generation's tasks with long polls, as a query that refetches itself until
 * every task is completed or failed. Network and server errors are retried with
 * a back-off (failureCount tells how many in a row).
 */
export function useTaskPolling(generation: FlowGeneration | null) {
  const serviceId = generation?.serviceId ?? ''
  const active = generation ? !generationFinished(generation) : false
  return useQuery({
    queryKey: ['pollTasks', serviceId],
    enabled: active,
    queryFn: async ({ signal }): Promise<TaskSnapshot> => {
      const generation = latestGeneration(serviceId)
      if (!generation) return { tasks: [], changed: false }
      const since = taskState(generation.taskIds, generation.tasks)
      const fresh = await pollTasks(generation.taskIds, signal, since)
      const tasks = mergeTasks(latestGeneration(serviceId) ?? generation, fresh)
      return { tasks, changed: taskState(generation.taskIds, tasks) !== since }
    },
    refetchInterval: (query) => nextPollDelay(query.state),
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    retry: (failureCount, err) => shouldRetry(failureCount, err, Number.POSITIVE_INFINITY),
    retryDelay: (attempt) => Math.min(POLL_INTERVAL_MS * 2 ** attempt, MAX_BACKOFF_MS),
    gcTime: 0,
  })
}
