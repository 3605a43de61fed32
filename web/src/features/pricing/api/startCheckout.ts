import { useMutation } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/api/v1/payment/checkout'

export type CheckoutBody = ApiBody<Path, 'post'>
export type CheckoutStarted = ApiData<Path, 'post'>

/** Starts paying for a plan's rate (signed in); the price is the server's. Open `checkoutUrl`. */
export function startCheckout(body: CheckoutBody): Promise<CheckoutStarted> {
  return unwrap(client.POST('/api/v1/payment/checkout', { body }))
}

export function useStartCheckout() {
  return useMutation({ mutationFn: startCheckout })
}
