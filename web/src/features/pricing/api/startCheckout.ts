import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiBody, ApiData } from '@/types/api'

const PATH = '/api/v1/payment/checkout'

export type CheckoutBody = ApiBody<typeof PATH, 'post'>
export type CheckoutStarted = ApiData<typeof PATH, 'post'>

/** Starts paying for a plan's rate (signed in); the price is the server's. Open `checkoutUrl`. */
export function startCheckout(body: CheckoutBody): Promise<CheckoutStarted> {
  return api.post(PATH, body)
}

export function useStartCheckout() {
  return useMutation({ mutationFn: startCheckout })
}
