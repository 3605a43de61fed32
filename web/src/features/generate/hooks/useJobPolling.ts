import { useSetAtom } from 'jotai'
import { useEffect } from 'react'
import { invalidateCredits } from '@/lib/credits'
import { appStore } from '@/stores/appStore'
import { stepsFlowAtom, updateJobAtom, type GeneratedJob } from '@/stores/stepsFlow'
import { useTaskPolling } from '../api/pollTasks'
import { jobFinished } from '../jobs'

/**
 * Follows the job's tasks (useTaskPolling) until every task is completed or
 * failed, writing each snapshot into the flow (so a reload can resume). Returns a
 * connection warning when polls keep failing.
 */
export function useJobPolling(job: GeneratedJob | null): string | null {
  const updateJob = useSetAtom(updateJobAtom)
  const poll = useTaskPolling(job)
  const serviceId = job?.serviceId
  const snapshot = poll.data

  useEffect(() => {
    if (!serviceId || !snapshot?.tasks.length) return
    const latest = appStore.get(stepsFlowAtom).stepGenerateImage.generatedResponse.find((j) => j.serviceId === serviceId)
    if (!latest) return
    const next = { ...latest, tasks: snapshot.tasks }
    updateJob(next)
    // Failed tasks may be refunded: show the real balance.
    if (jobFinished(next)) void invalidateCredits()
  }, [serviceId, snapshot, updateJob])

  const active = job ? !jobFinished(job) : false
  const failing = poll.failureCount >= 3 || poll.isError
  return active && failing ? 'Connection problem while checking progress. Still trying…' : null
}
