import { redirect } from 'react-router'
import { appStore } from '@/stores/appStore'
import { resetFlowAndUploads, stepsFlowAtom } from '@/features/create/store'

/**
 * Loader for the flow pages after the upload step (spec "flow rule"): with no
 * saved images the flow is reset and the user goes back to the start;
 * otherwise the saved flow (already loaded from sessionStorage) is used.
 */
export function requireUploadedImages() {
  if (appStore.get(stepsFlowAtom).stepUploadImages.files.length === 0) {
    resetFlowAndUploads()
    return redirect('/')
  }
  return null
}

/** Loader for `/`: arriving at the start clears the saved flow. */
export function clearFlowOnStart() {
  resetFlowAndUploads()
  return null
}
