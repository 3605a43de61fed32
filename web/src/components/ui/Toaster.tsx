import { dismissToast, useToasts } from '@/lib/toast'
import { IconAlert, IconCheck, IconClose } from './icons'

/** Renders the toast queue (lib/toast). One live region, announced politely. */
export function Toaster() {
  const toasts = useToasts()
  return (
    <div className="toaster" role="status" aria-live="polite" aria-atomic="false" data-testid="toaster">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast--${t.tone}`} data-testid="toast" data-tone={t.tone}>
          <span className="toast__icon" aria-hidden="true">
            {t.tone === 'success' ? <IconCheck size={18} /> : <IconAlert size={18} />}
          </span>
          <p className="toast__message">{t.message}</p>
          <button
            type="button"
            className="icon-btn icon-btn--small toast__close"
            aria-label="Dismiss"
            onClick={() => dismissToast(t.id)}
          >
            <IconClose size={16} />
          </button>
        </div>
      ))}
    </div>
  )
}
