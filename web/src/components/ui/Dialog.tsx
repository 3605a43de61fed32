import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { IconClose } from '@/components/ui/icons'

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])'

/** The dialog's name: a title it shows as an <h2>, or the id of a heading its children render. */
type Naming =
  | {
      title: ReactNode
      /** Hide the title visually (it still names the dialog). */
      hideTitle?: boolean
      titleClassName?: string
      labelledBy?: never
    }
  | { labelledBy: string; title?: never; hideTitle?: never; titleClassName?: never }

type DialogProps = Naming & {
  onClose: () => void
  children: ReactNode
  /**
   * Where focus goes on open, unless a child already took it (autoFocus): the first
   * element matching this selector, else the panel itself.
   */
  initialFocus?: string
  /** Extra classes on the panel (.modal__panel). */
  className?: string
  /** data-testid of the outer element; the close button's is closeTestId. */
  testId?: string
  closeTestId?: string
  /** Extra data-* attributes on the outer element. */
  data?: Record<`data-${string}`, string>
}

/**
 * A modal dialog: Escape and the backdrop close it, Tab stays inside, the page behind
 * does not scroll, and focus returns to where it was (the opener) when it closes.
 */
export function Dialog({
  onClose,
  children,
  initialFocus = '[data-autofocus]',
  className,
  testId,
  closeTestId = 'dialog-close',
  data,
  ...naming
}: DialogProps) {
  const ownTitleId = useId()
  const titleId = naming.labelledBy ?? ownTitleId
  const panelRef = useRef<HTMLDivElement>(null)
  // The opener, read on the first render: by the time effects run, a child's autoFocus
  // has already moved focus into the dialog.
  const [opener] = useState(() => document.activeElement as HTMLElement | null)
  // The latest onClose, so the keyboard handling is set up once per opening.
  const close = useRef(onClose)
  useEffect(() => {
    close.current = onClose
  })
  const focusOnOpen = useRef(initialFocus)

  useEffect(() => {
    const panel = panelRef.current
    if (panel && !panel.contains(document.activeElement)) {
      const first = panel.querySelector<HTMLElement>(focusOnOpen.current)
      if (first) first.focus()
      else panel.focus()
    }
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
      if (e.shiftKey && (document.activeElement === first || document.activeElement === panel)) {
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
      // The opener may be gone (the sidebar's Login is Logout once the login modal has signed
      // the user in): then the page's content, not <body>, so the next Tab goes on from there.
      if (opener?.isConnected) opener.focus?.()
      else document.getElementById('main')?.focus({ preventScroll: true })
    }
  }, [opener])

  return (
    <div className="modal" data-testid={testId} {...data}>
      <div className="modal__backdrop" onClick={onClose} aria-hidden="true" />
      <div
        className={className ? `modal__panel ${className}` : 'modal__panel'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        ref={panelRef}
        tabIndex={-1}
      >
        <button type="button" className="icon-btn modal__close" aria-label="Close" onClick={onClose} data-testid={closeTestId}>
          <IconClose />
        </button>
        {naming.title !== undefined && (
          <h2 id={titleId} className={naming.hideTitle ? 'visually-hidden' : naming.titleClassName}>
            {naming.title}
          </h2>
        )}
        {children}
      </div>
    </div>
  )
}
