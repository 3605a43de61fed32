import { useMutation } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import { invalidateCredits } from '@/api/credits'
import type { GenerationKind, GenerationSubmitted } from '@/types/api'

export interface GenerationSubmission {
  kind: GenerationKind
  modelId: string | null
  backgroundId: string | null
  inputFiles: string[]
  /** One UUID per Generate click; reused when that click is retried. */
  idempotencyKey: string
}

/** Sent as multipart form data, in this order: modelId, backgroundId, every inputFiles key. */
function formData(fields: Record<string, string | string[] | null | undefined>): FormData {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) for (const item of value) form.append(name, item)
    else if (value !== undefined && value !== null) form.append(name, value)
  }
  return form
}

/** bodySwap when a model is chosen (plus the background, if any); burstreplace for a background only. */
export function submitGeneration(req: GenerationSubmission): Promise<GenerationSubmitted> {
  const headers = { 'Idempotency-Key': req.idempotencyKey }
  if (req.kind === 'bodySwap') {
    if (!req.modelId) throw new Error('A model is required for a body swap.')
    const body = {
      modelId: req.modelId,
      ...(req.backgroundId ? { backgroundId: req.backgroundId } : {}),
      inputFiles: req.inputFiles,
    }
    return unwrap(client.POST('/imageedit/service/bodySwap', { body, bodySerializer: formData, headers }))
  }
  if (!req.backgroundId) throw new Error('A background is required.')
  const body = {
    backgroundId: req.backgroundId,
    inputFiles: req.inputFiles,
  }
  return unwrap(client.POST('/imageedit/service/burstreplace', { body, bodySerializer: formData, headers }))
}

export function useSubmitGeneration() {
  return useMutation({
    mutationFn: submitGeneration,
    // The credits were reserved.
    onSuccess: () => invalidateCredits(),
  })
}
