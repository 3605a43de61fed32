import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import { SUBSCRIPTION_KEY, type SubscriptionView } from '@/api/subscription'

export function cancelSubscription(): Promise<SubscriptionView> {
  return unwrap(client.POST('/api/v1/payment/subscription/cancel'))
}

/** Cancels at the end of the current period (credits already granted stay). */
export function useCancelSubscription(userEmail: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: (subscription) => queryClient.setQueryData([...SUBSCRIPTION_KEY, userEmail], subscription),
  })
}
