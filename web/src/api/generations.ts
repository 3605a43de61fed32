// Generations (the image edit API's services): submitting, listing, one by id, deleting, the
// feedback and sharing of their images, the ZIP of chosen images, and what one would cost.
import type { ApiBody, ApiQuery, RequestType } from '@/types/api'
import { client, unwrap } from './client'

export interface SubmitForm {
  requestType: RequestType
  modelId: string | null
  backgroundId: string | null
  inputFiles: string[]
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
export function submitGeneration(req: SubmitForm) {
  const headers = { 'Idempotency-Key': req.idempotencyKey }
  if (req.requestType === 'bodySwap') {
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

/** The caller's generations, newest first, a page at a time. */
export function listGenerations(query: ApiQuery<'/imageedit/service/all', 'get'>, signal?: AbortSignal) {
  return unwrap(client.GET('/imageedit/service/all', { params: { query }, signal }))
}

export function getService(serviceId: string, signal?: AbortSignal) {
  return unwrap(client.GET('/imageedit/service/{service_id}', { params: { path: { service_id: serviceId } }, signal }))
}

export function deleteGeneration(serviceId: string) {
  return unwrap(client.DELETE('/imageedit/service/{service_id}', { params: { path: { service_id: serviceId } } }))
}

/** One image of a finished generation; its siblings stay (its last image takes the generation). */
export function deleteImage(serviceId: string, taskId: string) {
  return unwrap(
    client.DELETE('/imageedit/service/{service_id}/task/{task_id}', { params: { path: { service_id: serviceId, task_id: taskId } } }),
  )
}

export function giveFeedback(body: ApiBody<'/imageedit/service/feedback', 'post'>) {
  return unwrap(client.POST('/imageedit/service/feedback', { body }))
}

export function shareImage(body: ApiBody<'/imageedit/service/share', 'post'>) {
  return unwrap(client.POST('/imageedit/service/share', { body }))
}

export function updateGuestEmail(body: ApiBody<'/imageedit/service/updateguestemail', 'post'>) {
  return unwrap(client.POST('/imageedit/service/updateguestemail', { body }))
}

/** The chosen images as one ZIP: the Response itself, its body read as a stream. */
export async function downloadZip(body: ApiBody<'/imageedit/service/download', 'post'>, signal?: AbortSignal) {
  const { response } = await client.POST('/imageedit/service/download', {
    body,
    headers: { Accept: 'application/zip, application/json' },
    signal,
    parseAs: 'stream',
  })
  return response
}

/** The price of a request (public). */
export function getCost(body: ApiBody<'/api/v1/request/costPublic', 'post'>, signal?: AbortSignal) {
  return unwrap(client.POST('/api/v1/request/costPublic', { body, signal }))
}
