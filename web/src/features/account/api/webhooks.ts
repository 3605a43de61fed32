import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, CreatedWebhookEndpoint, WebhookDelivery, WebhookEndpoint } from '@/types/api'

// The delivery log shows this many of the newest deliveries.
export const DELIVERY_LOG_LIMIT = 50

export const webhookEndpointsQueryOptions = (userEmail: string) =>
  queryOptions({
    queryKey: ['webhooks', userEmail],
    // Newest first, never their secrets.
    queryFn: ({ signal }): Promise<WebhookEndpoint[]> => unwrap(client.GET('/api/v1/webhooks', { signal })),
  })

export const webhookDeliveriesQueryOptions = (userEmail: string, endpointId: string) =>
  queryOptions({
    queryKey: ['webhooks', userEmail, endpointId, 'deliveries'],
    queryFn: ({ signal }): Promise<WebhookDelivery[]> => {
      const params = { path: { endpoint_id: endpointId }, query: { limit: DELIVERY_LOG_LIMIT } }
      return unwrap(client.GET('/api/v1/webhooks/{endpoint_id}/deliveries', { params, signal }))
    },
  })

/** The account's endpoints. */
export function useWebhookEndpoints(userEmail: string | null) {
  return useQuery({ ...webhookEndpointsQueryOptions(userEmail ?? ''), enabled: Boolean(userEmail) })
}

/** An endpoint's delivery log, fetched while `enabled` (the log is open). */
export function useWebhookDeliveries(userEmail: string, endpointId: string, enabled: boolean) {
  return useQuery({ ...webhookDeliveriesQueryOptions(userEmail, endpointId), enabled })
}

function useInvalidateEndpoints(userEmail: string) {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: webhookEndpointsQueryOptions(userEmail).queryKey, exact: true })
}

/** Creates an endpoint; the list is fetched again (the secret stays with the caller only). */
export function useCreateWebhookEndpoint(userEmail: string) {
  const invalidate = useInvalidateEndpoints(userEmail)
  return useMutation({
    // Answered with 201; `secret` (whsec_…) is in this answer only.
    mutationFn: (body: ApiBody<'/api/v1/webhooks', 'post'>): Promise<CreatedWebhookEndpoint> =>
      unwrap(client.POST('/api/v1/webhooks', { body })),
    onSuccess: invalidate,
  })
}

/** Deletes an endpoint, then fetches the list again. */
export function useDeleteWebhookEndpoint(userEmail: string) {
  const invalidate = useInvalidateEndpoints(userEmail)
  return useMutation({
    mutationFn: (endpointId: string) =>
      unwrap(client.DELETE('/api/v1/webhooks/{endpoint_id}', { params: { path: { endpoint_id: endpointId } } })),
    onSuccess: invalidate,
  })
}

/** Enables a disabled endpoint, then fetches the list again. */
export function useEnableWebhookEndpoint(userEmail: string) {
  const invalidate = useInvalidateEndpoints(userEmail)
  return useMutation({
    mutationFn: (endpointId: string) =>
      unwrap(client.POST('/api/v1/webhooks/{endpoint_id}/enable', { params: { path: { endpoint_id: endpointId } } })),
    onSuccess: invalidate,
  })
}

/** Sends a finished delivery again, then fetches the endpoint's log again. */
export function useResendWebhookDelivery(userEmail: string, endpointId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    // 202; 409 while it is pending or the endpoint is disabled.
    mutationFn: (deliveryId: string): Promise<WebhookDelivery> => {
      const path = { endpoint_id: endpointId, delivery_id: deliveryId }
      return unwrap(client.POST('/api/v1/webhooks/{endpoint_id}/deliveries/{delivery_id}/resend', { params: { path } }))
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookDeliveriesQueryOptions(userEmail, endpointId).queryKey }),
  })
}
