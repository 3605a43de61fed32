// The account's webhook endpoints: list, create (the signing secret is in that answer only),
// delete, enable again, and each endpoint's delivery log with "Resend".
import type { ApiBody } from '@/types/api'
import { client, unwrap } from './client'

/** The endpoints, newest first (never their secrets). */
export function listWebhookEndpoints(signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/webhooks', { signal }))
}

/** Answered with 201; `secret` (whsec_…) is in this answer only. */
export function createWebhookEndpoint(body: ApiBody<'/api/v1/webhooks', 'post'>) {
  return unwrap(client.POST('/api/v1/webhooks', { body }))
}

/** Deletes the endpoint: it receives nothing more. */
export function deleteWebhookEndpoint(endpointId: string) {
  return unwrap(client.DELETE('/api/v1/webhooks/{endpoint_id}', { params: { path: { endpoint_id: endpointId } } }))
}

/** Enables a disabled endpoint again. */
export function enableWebhookEndpoint(endpointId: string) {
  return unwrap(client.POST('/api/v1/webhooks/{endpoint_id}/enable', { params: { path: { endpoint_id: endpointId } } }))
}

/** The endpoint's latest deliveries, newest first. */
export function listWebhookDeliveries(endpointId: string, limit = 50, signal?: AbortSignal) {
  return unwrap(
    client.GET('/api/v1/webhooks/{endpoint_id}/deliveries', {
      params: { path: { endpoint_id: endpointId }, query: { limit } },
      signal,
    }),
  )
}

/** Sends a finished delivery again (202; 409 while it is pending or the endpoint is disabled). */
export function resendWebhookDelivery(endpointId: string, deliveryId: string) {
  return unwrap(
    client.POST('/api/v1/webhooks/{endpoint_id}/deliveries/{delivery_id}/resend', {
      params: { path: { endpoint_id: endpointId, delivery_id: deliveryId } },
    }),
  )
}
