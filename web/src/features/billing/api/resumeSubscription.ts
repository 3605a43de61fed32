import { useMutation, useQueryClient } from '@tanstack/react-query'
import * as paymentApi from '@/api/payment'
import { SUBSCRIPTION_KEY, type SubscriptionView } from '@/api/subscription'

export function resumeSubscription(): Promise<SubscriptionView> {
  return paymentApi.resumeSubscription()
}

/** Undoes a pending cancel: the plan renews again at the end of the period. */
export function useResumeSubscription(userEmail: string) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: resumeSubscription,
    onSuccess: (subscription) => client.setQueryData([...SUBSCRIPTION_KEY, userEmail], subscription),
  })
}
