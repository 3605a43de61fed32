import { useEffect, useRef, type RefObject } from 'react'

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]',
].join(', ')

/** The elements of `container` that Tab visits, in document order. */
export function tabbables(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) =>
      el.tabIndex >= 0 &&
      !el.closest('[hidden], [inert]') &&
      // Elements not rendered (display: none, e.g. a label hidden at this width) get no focus.
      (typeof el.checkVisibility !== 'function' || el.checkVisibility()),
  )
}

export interface FocusTrapOptions {
  /** The trap holds while this is true; it lets go when it turns false or on unmount. */
  active: boolean
  /** Escape pressed while the trap holds (the caller closes what it trapped focus in). */
  onEscape?: () => void
  /** Where focus goes back when the trap lets go, unless focus has already moved elsewhere. */
  returnFocusTo?: RefObject<HTMLElement | null>
}

/**
 * Keeps keyboard focus inside `containerRef` while `active` (a modal drawer or panel): focus moves
 * to its first control on activation, Tab and Shift+Tab cycle through its controls and never
 * leave it, Escape calls `onEscape`, and focus returns to `returnFocusTo` when the trap lets go.
 *
 * Every Tab is handled here rather than left to the browser, so the trap holds even when focus
 * sits on something that is not a control (the panel itself after a click on its background).
 */
export function useFocusTrap(containerRef: RefObject<HTMLElement | null>, options: FocusTrapOptions): void {
  const { active } = options
  // The latest callbacks, so the listeners are set up once per activation.
  const latest = useRef(options)
  useEffect(() => {
    latest.current = options
  })

  useEffect(() => {
    if (!active) return
    const container = containerRef.current
    if (!container) return
    const first = tabbables(container)[0]
    if (first) first.focus()
    else container.focus()

    const onKey = (e: KeyboardEvent) => {
      // Not rendered now (a drawer hidden by a media query once the window widened, or a zoom
      // went back to 100 %): the page is the keyboard's again.
      if (typeof container.checkVisibility === 'function' && !container.checkVisibility()) return
      if (e.key === 'Escape') {
        if (!latest.current.onEscape) return
        e.preventDefault()
        latest.current.onEscape()
        return
      }
      if (e.key !== 'Tab') return
      e.preventDefault()
      const items = tabbables(container)
      if (items.length === 0) {
        container.focus()
        return
      }
      const at = items.indexOf(document.activeElement as HTMLElement)
      const next = e.shiftKey
        ? items[at <= 0 ? items.length - 1 : at - 1]
        : items[at < 0 || at === items.length - 1 ? 0 : at + 1]
      next?.focus()
    }
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('keydown', onKey)
      // Give focus back only when it was lost with the container (still inside it, or dropped
      // to <body> because the focused control went away): a dialog or page that took focus
      // meanwhile keeps it.
      const now = document.activeElement
      if (!now || now === document.body || container.contains(now)) {
        latest.current.returnFocusTo?.current?.focus()
      }
    }
  }, [active, containerRef])
}
