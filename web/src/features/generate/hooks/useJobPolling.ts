import { useSetAtom } from 'jotai'
import { useEffect, useState } from 'react'
import { appStore } from '@/app/store'
import { POLL_INTERVAL_MS } from '@/config'
import { refreshCreditsAtom } from '@/features/credits/stores/credits'
import { stepsFlowAtom, updateJobAtom, type GeneratedJob } from '@/features/flow/stores/stepsFlow'
import { isAbortError } from '@/lib/api'
import type { Task } from '@/types/api'
import { pollTasks, taskState } from '../api/generate'

export function isTerminal(task: Task): boolean {
  return task.status === 'completed' || task.status === 'failed'
}

export function jobFinished(job: GeneratedJob): boolean {
  return job.tasks.length > 0 && job.tasks.every(isTerminal)
}

/** Keeps the job's task order and any task the server did not mention. */
function mergeTasks(job: GeneratedJob, fresh: Task[]): Task[] {
  const byId = new Map(fresh.map((t) => [t.taskId, t]))
  return job.taskIds.map(
    (id) =>
      byId.get(id) ?? job.tasks.find((t) => t.taskId === id) ?? {
        taskId: id,
        status: 'queued',
        progress: 0,
        inputKey: '',
        outputs: [],
        error: null,
      },
  )
}

/**
 * Follows the job's tasks with long polls (the server answers the moment a task
 * moves on) until every task is completed or failed, writing each snapshot into
 * the flow (so a reload can resume). Returns a connection warning when polls
 * keep failing.
 */
export function useJobPolling(job: GeneratedJob | null): string | null {
  const updateJob = useSetAtom(updateJobAtom)
  const refreshCredits = useSetAtom(refreshCreditsAtom)
  const [warning, setWarning] = useState<string | null>(null)
  const serviceId = job?.serviceId
  const active = job ? !jobFinished(job) : false

  useEffect(() => {
    if (!serviceId || !active) return
    const ctrl = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    let failures = 0

    const latest = () =>
      appStore.get(stepsFlowAtom).stepGenerateImage.generatedResponse.find((j) => j.serviceId === serviceId)

    const tick = async () => {
      const job = latest()
      if (!job) return
      let changed = false
      try {
        const since = taskState(job.taskIds, job.tasks)
        const fresh = await pollTasks(job.taskIds, ctrl.signal, since)
        failures = 0
        setWarning(null)
        const next = { ...job, tasks: mergeTasks(latest() ?? job, fresh) }
        changed = taskState(next.taskIds, next.tasks) !== since
        updateJob(next)
        if (jobFinished(next)) {
          // Failed tasks may be refunded: show the real balance.
          void refreshCredits()
          return
        }
      } catch (err) {
        if (isAbortError(err)) return
        failures += 1
        if (failures >= 3) setWarning('Connection problem while checking progress. Still trying…')
      }
      // A change: ask again at once (the server holds the request until the next one).
      // No change (the wait ran out): a short pause. Errors: back off gently.
      const delay = failures ? Math.min(POLL_INTERVAL_MS * 2 ** failures, 10_000) : changed ? 0 : POLL_INTERVAL_MS
      timer = setTimeout(() => void tick(), delay)
    }
    void tick()

    return () => {
      ctrl.abort()
      clearTimeout(timer)
    }
  }, [serviceId, active, updateJob, refreshCredits])

  return active ? warning : null
}
