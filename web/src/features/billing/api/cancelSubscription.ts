import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { SUBSCRIPTION_KEY, type SubscriptionView } from '@/lib/subscription'

export function cancelSubscription(): Promise<SubscriptionView> {
  return api.post<SubscriptionView>('/api/v1/payment/subscription/cancel')
}

/** Cancels at the end of the current period (credits already granted stay). */
export function useCancelSubscription(userEmail: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: (subscription) => client.setQueryData([...SUBSCRIPTION_KEY, userEmail], subscription),
  })
}
