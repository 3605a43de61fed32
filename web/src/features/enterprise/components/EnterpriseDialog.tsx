import { useAtom } from 'jotai'
import { useCallback, useEffect, useId, useRef } from 'react'
import { createPortal } from 'react-dom'
import { IconClose } from '@/components/ui/icons'
import { enterpriseDialogOpenAtom } from '../stores/dialog'
import { EnterpriseForm } from './EnterpriseForm'

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])'

function Dialog({ onClose }: { onClose: () => void }) {
  const titleId = useId()
  const panelRef = useRef<HTMLDivElement>(null)

  // Escape closes; Tab stays inside; focus goes back to the button that opened it.
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    const panel = panelRef.current
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault()
        onClose()
        return
      }
      if (e.key !== 'Tab' || !panel) return
      const items = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE))
      const first = items[0]
      const last = items[items.length - 1]
      if (!first || !last) return
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault()
        last.focus()
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault()
        first.focus()
      }
    }
    document.addEventListener('keydown', onKey)
    const { overflow } = document.body.style
    document.body.style.overflow = 'hidden'
    return () => {
      document.removeEventListener('keydown', onKey)
      document.body.style.overflow = overflow
      previous?.focus?.()
    }
  }, [onClose])

  return (
    <div className="modal" data-testid="enterprise-dialog">
      <div className="modal__backdrop" onClick={onClose} aria-hidden="true" />
      <div
        className="modal__panel enterprise-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        ref={panelRef}
      >
        <button type="button" className="icon-btn modal__close" aria-label="Close" onClick={onClose} data-testid="enterprise-dialog-close">
          <IconClose />
        </button>
        <div>
          <h2 id={titleId} className="enterprise-dialog__title">
            Book An Appointment
          </h2>
          <p className="muted">Enterprise Solutions: tell us who you are and our expert will connect with you.</p>
        </div>
        <EnterpriseForm source="sidebar" onSubmitted={onClose} autoFocus />
      </div>
    </div>
  )
}

/**
 * The Enterprise Solutions form as a dialog over the page, while it is asked for. Rendered
 * into <body> so it shows wherever its host sits (even in a hidden rail).
 */
export function EnterpriseDialog() {
  const [open, setOpen] = useAtom(enterpriseDialogOpenAtom)
  const close = useCallback(() => setOpen(false), [setOpen])
  if (!open) return null
  return createPortal(<Dialog onClose={close} />, document.body)
}
