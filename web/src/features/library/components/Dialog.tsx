import { useEffect, useId, useRef, type ReactNode } from 'react'
import { IconClose } from '@/components/ui/icons'

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])'

interface DialogProps {
  title: string
  /** Hide the title visually (it still names the dialog). */
  hideTitle?: boolean
  onClose: () => void
  children: ReactNode
  /** 'wide' for the full-size viewer. */
  size?: 'narrow' | 'wide'
  testId?: string
}

/** A modal dialog: Escape and the backdrop close it, Tab stays inside, focus returns after. */
export function Dialog({ title, hideTitle, onClose, children, size = 'narrow', testId }: DialogProps) {
  const titleId = useId()
  const panelRef = useRef<HTMLDivElement>(null)
  const close = useRef(onClose)
  useEffect(() => {
    close.current = onClose
  })

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    const panel = panelRef.current
    const first = panel?.querySelector<HTMLElement>('[data-autofocus]')
    if (first) first.focus()
    else panel?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault()
        close.current()
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
  }, [])

  return (
    <div className="modal" data-testid={testId}>
      <div className="modal__backdrop" onClick={onClose} aria-hidden="true" />
      <div
        className={`modal__panel lib-dialog lib-dialog--${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        ref={panelRef}
        tabIndex={-1}
      >
        <button type="button" className="icon-btn modal__close" aria-label="Close" onClick={onClose} data-testid="dialog-close">
          <IconClose />
        </button>
        <h2 id={titleId} className={hideTitle ? 'visually-hidden' : 'lib-dialog__title'}>
          {title}
        </h2>
        {children}
      </div>
    </div>
  )
}
