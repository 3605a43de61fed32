/**
 * Toasts, through sonner, usable from anywhere (components, stores, the query
 * client's error handling). <Toaster /> renders them. The message is the toast's
 * id, so the same message raised by several calls at once shows once.
 */
import { toast as sonner } from 'sonner'

export type ToastTone = 'info' | 'success' | 'error'

const DURATION_MS: Record<ToastTone, number> = { info: 5000, success: 5000, error: 7000 }

export function toast(message: string, tone: ToastTone = 'info'): void {
  const show = tone === 'success' ? sonner.success : tone === 'error' ? sonner.error : sonner.info
  show(message, { id: `${tone}:${message}`, duration: DURATION_MS[tone], testId: 'toast' })
}

toast.success = (message: string) => toast(message, 'success')
toast.error = (message: string) => toast(message, 'error')
