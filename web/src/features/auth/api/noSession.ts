import type { RequestOptions } from '@/lib/api'

/**
 * Calls made without a session send no Authorization; x-fingerprint-id (added by
 * lib/api) lets the server move the guest's generations to the account, and the
 * refresh cookie comes back with the answer.
 */
export const NO_SESSION = { auth: false, credentials: 'include' } satisfies Partial<RequestOptions>
