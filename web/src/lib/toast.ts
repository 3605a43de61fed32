/**
 * Toasts, through sonner, usable from anywhere (components, stores, the query
 * client's error handling). <Toaster /> renders them. The message is the toast's
 * id, so the same message raised by several calls at once shows once.
 */
import { toast as sonner } from 'sonner'

export type ToastTone = 'info' | 'success' | 'error'

const DURATION_MS: Record<ToastTone, number> = { info: 5000, success: 5000, error: 7000 }

// The error toasts on screen (by id), so a later success can take them away.
const shownErrors = new Set<string>()

export function toast(message: string, tone: ToastTone = 'info'): void {
  const show = tone === 'success' ? sonner.success : tone === 'error' ? sonner.error : sonner.info
  const id = `${tone}:${message}`
  if (tone === 'error') shownErrors.add(id)
  show(message, {
    id,
    duration: DURATION_MS[tone],
    testId: 'toast',
    onAutoClose: () => shownErrors.delete(id),
    onDismiss: () => shownErrors.delete(id),
  })
}

toast.success = (message: string) => toast(message, 'success')
toast.error = (message: string) => toast(message, 'error')

/**
 * Takes away the error toasts still on screen: once the thing they complained about has
 * worked (the right code after a wrong one), a red "The code is wrong" must not linger.
 */
toast.clearErrors = (): void => {
  for (const id of shownErrors) sonner.dismiss(id)
  shownErrors.clear()
}
