import { useMutation } from '@tanstack/react-query'
import * as generationsApi from '@/api/generations'
import { invalidateCredits } from '@/api/credits'
import type { RequestType, ServiceSubmitted } from '@/types/api'

export interface SubmitRequest {
  requestType: RequestType
  modelId: string | null
  backgroundId: string | null
  inputFiles: string[]
  /** One UUID per Generate click; reused when that click is retried. */
  idempotencyKey: string
}

/** bodySwap when a model is chosen (plus the background, if any); burstreplace for a background only. */
export function submitGeneration(req: SubmitRequest): Promise<ServiceSubmitted> {
  return generationsApi.submitGeneration(req)
}

export function useSubmitGeneration() {
  return useMutation({
    mutationFn: submitGeneration,
    // The credits were reserved.
    onSuccess: () => invalidateCredits(),
  })
}
