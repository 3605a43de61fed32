import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { invalidateCredits } from '@/lib/credits'
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
  const form = new FormData()
  if (req.requestType === 'bodySwap') {
    if (!req.modelId) throw new Error('A model is required for a body swap.')
    form.append('modelId', req.modelId)
    if (req.backgroundId) form.append('backgroundId', req.backgroundId)
  } else {
    if (!req.backgroundId) throw new Error('A background is required.')
    form.append('backgroundId', req.backgroundId)
  }
  for (const key of req.inputFiles) form.append('inputFiles', key)
  return api.postForm<ServiceSubmitted>(`/imageedit/service/${req.requestType}`, form, {
    headers: { 'Idempotency-Key': req.idempotencyKey },
  })
}

export function useSubmitGeneration() {
  return useMutation({
    mutationFn: submitGeneration,
    // The credits were reserved.
    onSuccess: () => invalidateCredits(),
  })
}
