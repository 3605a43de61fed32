/**
 * Resetting the "Create New Image" flow is needed outside it (logging out). The flow's
 * store lives in features/create and registers its reset here when it loads; until then
 * there is no flow in memory, and dropping its saved copy (sessionStorage) is the reset.
 */
import { STORAGE_KEYS } from '@/config'
import { removeItem } from '@/lib/storage'

let registered: (() => void) | null = null

/** The create flow's store registers how it resets (its uploads, previews and saved flow). */
export function registerFlowReset(reset: () => void): void {
  registered = reset
}

/** Resets the create flow: cancels its uploads and clears what the user chose. */
export function resetCreateFlow(): void {
  if (registered) registered()
  else removeItem('session', STORAGE_KEYS.stepsFlow)
}
