import { useSetAtom } from 'jotai'
import { useEffect } from 'react'
import { invalidateCredits } from '@/lib/credits'
import { appStore } from '@/stores/appStore'
import { stepsFlowAtom, updateGenerationAtom, type FlowGeneration } from '@/stores/stepsFlow'
import { useTaskPolling } from '../api/pollTasks'
import { generationFinished } from '../generations'

/**
 * Follows the generation's tasks (useTaskPolling) until every task is completed or
 * failed, writing each snapshot into the flow (so a reload can resume). Returns a
 * connection warning when polls keep failing.
 */
export function useGenerationPolling(generation: FlowGeneration | null): string | null {
  const updateGeneration = useSetAtom(updateGenerationAtom)
  const poll = useTaskPolling(generation)
  const serviceId = generation?.serviceId
  const snapshot = poll.data

  useEffect(() => {
    if (!serviceId || !snapshot?.tasks.length) return
    const latest = appStore.get(stepsFlowAtom).stepGenerateImage.generatedResponse.find((g) => g.serviceId === serviceId)
    if (!latest) return
    const next = { ...latest, tasks: snapshot.tasks }
    updateGeneration(next)
    // Failed tasks may be refunded: show the real balance.
    if (generationFinished(next)) void invalidateCredits()
  }, [serviceId, snapshot, updateGeneration])

  const active = generation ? !generationFinished(generation) : false
  const failing = poll.failureCount >= 3 || poll.isError
  return active && failing ? 'Connection problem while checking progress. Still trying…' : null
}
