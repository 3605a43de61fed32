import { Toaster as Sonner } from 'sonner'

/** Renders the toasts (lib/toast) inside one polite status region. */
export function Toaster() {
  return (
    <div className="toaster" role="status" aria-live="polite" aria-atomic="false" data-testid="toaster">
      <Sonner position="bottom-right" richColors closeButton containerAriaLabel="Notifications" />
    </div>
  )
}
