import { captureQueryParams } from '@/lib/identity'
import { ensureGuestToken } from '@/lib/api'
import { refreshCreditsAtom } from '@/features/credits/stores/credits'
import { restoreSession } from '@/features/auth/session'
import { appStore } from './store'

/**
 * Runs once before the first render: remembers dbId/leadId and restores a
 * stored user (its credits are then fetched by RootLayout). Guests get a guest
 * session in the background so the first real call does not wait for it.
 * Failures are quiet here; every API call retries the guest login itself.
 */
export function bootstrap(): void {
  captureQueryParams(window.location.search)
  if (restoreSession()) return
  ensureGuestToken()
    .then(() => appStore.set(refreshCreditsAtom))
    .catch((err: unknown) => console.warn('Guest login failed, will retry on the next request:', err))
}
