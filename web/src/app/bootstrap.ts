import { restoreSession } from '@/features/auth/session'
import { ensureGuestToken } from '@/api/client'
import { captureQueryParams } from '@/lib/identity'
import { startMonitoring } from '@/lib/monitoring'
import { prefetchSiteConfig } from '@/lib/siteConfig'

/**
 * Runs once before the first render: remembers dbId/leadId and restores a
 * stored user (the sidebar's credit query then fetches its balance). Guests get a
 * guest session in the background so the first real call does not wait for it.
 * Failures are quiet here; every API call retries the guest login itself.
 */
export function bootstrap(): void {
  prefetchSiteConfig()
  startMonitoring().catch((err: unknown) => console.warn('Monitoring did not start:', err))
  captureQueryParams(window.location.search)
  if (restoreSession()) return
  ensureGuestToken().catch((err: unknown) => console.warn('Guest login failed, will retry on the next request:', err))
}
