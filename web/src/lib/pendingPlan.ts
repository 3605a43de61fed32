/**
 * The plan a guest chose with Buy Now (spec §4): kept in session storage while they log in
 * or sign up (in the login modal, or on /signup and /login, where the modal's "Create an
 * account" sends them from pricing), so that either continues to /plan-details with it.
 */
import { readItem, removeItem, writeItem } from './storage'

export const PENDING_PLAN_KEY = 'mm:pricingPlan'

/** Stores the /plan-details URL to continue to after login. */
export function rememberPlan(url: string): void {
  writeItem('session', PENDING_PLAN_KEY, url)
}

/** The remembered URL, removed as it is read (it is used once). */
export function takeRememberedPlan(): string | null {
  const url = readItem('session', PENDING_PLAN_KEY)
  removeItem('session', PENDING_PLAN_KEY)
  return url && url.startsWith('/plan-details?') ? url : null
}
