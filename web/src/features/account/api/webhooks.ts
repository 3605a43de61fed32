import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import * as webhooksApi from '@/api/webhooks'
import type { ApiBody, CreatedWebhookEndpoint, WebhookDelivery, WebhookEndpoint } from '@/types/api'

// The delivery log shows this many of the newest deliveries.
export const DELIVERY_LOG_LIMIT = 50

export const webhookEndpointsQueryOptions = (userEmail: string) =>
  queryOptions({
    queryKey: ['webhooks', userEmail],
    queryFn: ({ signal }): Promise<WebhookEndpoint[]> => webhooksApi.listWebhookEndpoints(signal),
  })

export const webhookDeliveriesQueryOptions = (userEmail: string, endpointId: string) =>
  queryOptions({
    queryKey: ['webhooks', userEmail, endpointId, 'deliveries'],
    queryFn: ({ signal }): Promise<WebhookDelivery[]> =>
      webhooksApi.listWebhookDeliveries(endpointId, DELIVERY_LOG_LIMIT, signal),
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
    mutationFn: (body: ApiBody<'/api/v1/webhooks', 'post'>): Promise<CreatedWebhookEndpoint> =>
      webhooksApi.createWebhookEndpoint(body),
    onSuccess: invalidate,
  })
}

/** Deletes an endpoint, then fetches the list again. */
export function useDeleteWebhookEndpoint(userEmail: string) {
  const invalidate = useInvalidateEndpoints(userEmail)
  return useMutation({ mutationFn: webhooksApi.deleteWebhookEndpoint, onSuccess: invalidate })
}

/** Enables a disabled endpoint, then fetches the list again. */
export function useEnableWebhookEndpoint(userEmail: string) {
  const invalidate = useInvalidateEndpoints(userEmail)
  return useMutation({ mutationFn: webhooksApi.enableWebhookEndpoint, onSuccess: invalidate })
}

/** Sends a finished delivery again, then fetches the endpoint's log again. */
export function useResendWebhookDelivery(userEmail: string, endpointId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (deliveryId: string): Promise<WebhookDelivery> => webhooksApi.resendWebhookDelivery(endpointId, deliveryId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookDeliveriesQueryOptions(userEmail, endpointId).queryKey }),
  })
}
