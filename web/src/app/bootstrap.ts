import { restoreSession } from '@/features/auth/session'
import { captureQueryParams } from '@/lib/identity'
import { startMonitoring } from '@/lib/monitoring'
import { prefetchSiteConfig } from '@/api/siteConfig'

/**
 * Runs once before the first render: remembers dbId/leadId and restores a
 * stored user (the sidebar's credit query then fetches its balance). A visitor gets
 * no guest session here: the first call that needs one starts it (api/client.ts), since
 * each new guest may take one of the network's few free grants a day.
 */
export function bootstrap(): void {
  prefetchSiteConfig()
  startMonitoring().catch((err: unknown) => console.warn('Monitoring did not start:', err))
  captureQueryParams(window.location.search)
  restoreSession()
}
