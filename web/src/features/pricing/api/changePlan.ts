import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import { invalidateCredits } from '@/api/credits'
import { SUBSCRIPTION_KEY } from '@/api/subscription'
import type { ApiData } from '@/types/api'

export type PlanChangePreview = ApiData<'/api/v1/payment/subscription/change/preview', 'post'>

export interface PlanChoice {
  piid: string
  rcid: string
}

/** What switching to `choice` would charge and grant now, and when it applies. */
export function usePlanChangePreview(choice: PlanChoice) {
  return useQuery({
    queryKey: ['billing', 'plan-change-preview', choice.piid, choice.rcid],
    queryFn: () => unwrap(client.POST('/api/v1/payment/subscription/change/preview', { body: choice })),
    // The amounts depend on this period's grants: asked afresh each time the dialog opens.
    gcTime: 0,
    staleTime: 0,
  })
}

/** Changes the plan; the subscription and the balance are read again afterwards. */
export function useChangePlan(userEmail: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (choice: PlanChoice) => unwrap(client.POST('/api/v1/payment/subscription/change', { body: choice })),
    onSuccess: async (subscription) => {
      queryClient.setQueryData([...SUBSCRIPTION_KEY, userEmail], subscription)
      await invalidateCredits()
    },
  })
}
