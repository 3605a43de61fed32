import { api } from '@/lib/api'
import type { RequestType, ServiceJob, ServiceSubmitted, Task } from '@/types/api'

export interface CostRequest {
  backgroundId: string | null
  modelId: string | null
  inputFiles: string[]
  requestType: RequestType
}

export function getCost(body: CostRequest, signal?: AbortSignal): Promise<{ credits: number }> {
  return api.post<{ credits: number }>('/api/v1/request/costPublic', body, { signal })
}

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

export function pollTasks(taskIds: string[], signal?: AbortSignal): Promise<Task[]> {
  return api.get<Task[]>('/api/v1/task/pollTasks', { taskIds: JSON.stringify(taskIds) }, signal)
}

export function getService(serviceId: string, signal?: AbortSignal): Promise<ServiceJob> {
  return api.get<ServiceJob>(`/imageedit/service/${encodeURIComponent(serviceId)}`, undefined, signal)
}

export function updateGuestEmail(body: { email: string; serviceId: string }): Promise<{ ok: boolean }> {
  return api.post<{ ok: boolean }>('/imageedit/service/updateguestemail', body)
}
