import { lazy, Suspense } from 'react'

// sonner loads with its first toast or here, after the page's first script (lib/toast, issue 39).
const Sonner = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })))

/** Renders the toasts (lib/toast) inside one polite status region, there from the start. */
export function Toaster() {
  return (
    <div className="toaster" role="status" aria-live="polite" aria-atomic="false" data-testid="toaster">
      <Suspense fallback={null}>
        <Sonner position="bottom-right" richColors closeButton containerAriaLabel="Notifications" />
      </Suspense>
    </div>
  )
}
