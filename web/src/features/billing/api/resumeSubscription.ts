import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import { SUBSCRIPTION_KEY, type SubscriptionView } from '@/api/subscription'

export function resumeSubscription(): Promise<SubscriptionView> {
  return unwrap(client.POST('/api/v1/payment/subscription/resume'))
}

/** Undoes a pending cancel: the plan renews again at the end of the period. */
export function useResumeSubscription(userEmail: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: resumeSubscription,
    onSuccess: (subscription) => queryClient.setQueryData([...SUBSCRIPTION_KEY, userEmail], subscription),
  })
}
