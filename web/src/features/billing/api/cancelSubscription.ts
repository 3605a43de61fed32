import { useMutation, useQueryClient } from '@tanstack/react-query'
import * as paymentApi from '@/api/payment'
import { SUBSCRIPTION_KEY, type SubscriptionView } from '@/api/subscription'

export function cancelSubscription(): Promise<SubscriptionView> {
  return paymentApi.cancelSubscription()
}

/** Cancels at the end of the current period (credits already granted stay). */
export function useCancelSubscription(userEmail: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: (subscription) => client.setQueryData([...SUBSCRIPTION_KEY, userEmail], subscription),
  })
}
