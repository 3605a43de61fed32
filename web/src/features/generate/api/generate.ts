import { LONG_POLL_WAIT_MS } from '@/config'
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

/** The `since` of a long poll: each task's `status:progress`, in taskIds order (see the API). */
export function taskState(taskIds: string[], tasks: Task[]): string {
  const byId = new Map(tasks.map((t) => [t.taskId, t]))
  return taskIds
    .map((id) => {
      const t = byId.get(id)
      return t ? `${t.status}:${t.progress}` : 'queued:0'
    })
    .join(',')
}

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
  const query = { taskIds: JSON.stringify(taskIds), ...(since === undefined ? {} : { since, waitMs }) }
  return api.get<Task[]>('/api/v1/task/pollTasks', query, signal)
}

export function getService(serviceId: string, signal?: AbortSignal): Promise<ServiceJob> {
  return api.get<ServiceJob>(`/imageedit/service/${encodeURIComponent(serviceId)}`, undefined, signal)
}

export function updateGuestEmail(body: { email: string; serviceId: string }): Promise<{ ok: boolean }> {
  return api.post<{ ok: boolean }>('/imageedit/service/updateguestemail', body)
}
