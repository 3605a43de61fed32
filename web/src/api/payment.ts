// Payments (commerce contract): checkout, orders, the payment history, the subscription.
import type { ApiBody, ApiQuery } from '@/types/api'
import { client, sendWithSession, unwrap } from './client'

export function startCheckout(body: ApiBody<'/api/v1/payment/checkout', 'post'>) {
  return unwrap(client.POST('/api/v1/payment/checkout', { body }))
}

export function getOrder(orderId: string, signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/payment/order/{orderId}', { params: { path: { orderId } }, signal }))
}

export function getPaymentHistory(query: ApiQuery<'/api/v1/payment/history', 'get'>, signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/payment/history', { params: { query }, signal }))
}

export function getSubscription(signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/payment/subscription', { signal }))
}

export function cancelSubscription() {
  return unwrap(client.POST('/api/v1/payment/subscription/cancel'))
}

export function resumeSubscription() {
  return unwrap(client.POST('/api/v1/payment/subscription/resume'))
}

/** An invoice PDF at the URL the payment history gave (with the session): the Response. */
export function getInvoice(invoiceUrl: string) {
  return sendWithSession(invoiceUrl, { headers: { Accept: 'application/pdf' } })
}

/** What changing the subscription to that plan would do now (nothing is changed). */
export function previewPlanChange(body: ApiBody<'/api/v1/payment/subscription/change/preview', 'post'>) {
  return unwrap(client.POST('/api/v1/payment/subscription/change/preview', { body }))
}

/** Change the subscription's plan: an upgrade at once once paid, a downgrade at the period end. */
export function changePlan(body: ApiBody<'/api/v1/payment/subscription/change', 'post'>) {
  return unwrap(client.POST('/api/v1/payment/subscription/change', { body }))
}
