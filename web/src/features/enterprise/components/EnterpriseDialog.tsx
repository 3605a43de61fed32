import { useAtom } from 'jotai'
import { lazy, Suspense, useCallback } from 'react'
import { createPortal } from 'react-dom'
import { enterpriseDialogOpenAtom } from '../stores/dialog'

// The form (react-hook-form, its zod schema) loads when the dialog first opens, not with
// every page: the sidebar that offers it is on all of them.
const BookingDialog = lazy(() => import('./BookingDialog').then((m) => ({ default: m.BookingDialog })))

/**
 * The Enterprise Solutions form as a dialog over the page, while it is asked for. Rendered
 * into <body> so it shows wherever its host sits (even in a hidden rail).
 */
export function EnterpriseDialog() {
  const [open, setOpen] = useAtom(enterpriseDialogOpenAtom)
  const close = useCallback(() => setOpen(false), [setOpen])
  if (!open) return null
  return createPortal(
    <Suspense fallback={null}>
      <BookingDialog onClose={close} />
    </Suspense>,
    document.body,
  )
}
