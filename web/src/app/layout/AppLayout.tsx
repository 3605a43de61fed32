import { useRef, useState } from 'react'
import { Outlet, useLocation } from 'react-router'
import { IconClose, IconMenu } from '@/components/ui/icons'
import { useFocusOnRouteChange } from '@/hooks/useFocusOnRouteChange'
import { useFocusTrap } from '@/hooks/useFocusTrap'
import { Sidebar } from './Sidebar'
import { BrandLink } from '@/components/BrandLink'

export function AppLayout() {
  const [menuOpen, setMenuOpen] = useState(false)
  const { pathname } = useLocation()
  const mainRef = useRef<HTMLElement>(null)
  const menuButtonRef = useRef<HTMLButtonElement>(null)
  const panelRef = useRef<HTMLDivElement>(null)

  useFocusOnRouteChange(mainRef, pathname)

  // Focus goes back to the menu button now, while the drawer is still there: a dialog the
  // drawer's Login or Book An Appointment opens takes that button as the place to return to
  // (its own control is gone by then), and a link's new page then moves focus on to <main>.
  const close = () => {
    menuButtonRef.current?.focus()
    setMenuOpen(false)
  }
  useFocusTrap(panelRef, { active: menuOpen, onEscape: close, returnFocusTo: menuButtonRef })

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="mobile-header">
        <BrandLink />
        <button
          type="button"
          className="icon-btn"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen((o) => !o)}
          ref={menuButtonRef}
          data-testid="mobile-menu-button"
        >
          {menuOpen ? <IconClose /> : <IconMenu />}
        </button>
      </header>

      {menuOpen && (
        <div className="drawer" id="mobile-menu">
          <div className="drawer__backdrop" onClick={close} aria-hidden="true" />
          <div className="drawer__panel" role="dialog" aria-modal="true" aria-label="Menu" ref={panelRef} tabIndex={-1}>
            {/* The header's button lies under the backdrop, outside this modal panel: this one
                lets touch screen-reader users, who have no Escape key, close the menu. */}
            <button
              type="button"
              className="icon-btn drawer__close"
              aria-label="Close menu"
              onClick={close}
              data-testid="mobile-menu-close"
            >
              <IconClose />
            </button>
            <Sidebar variant="drawer" onNavigate={close} />
          </div>
        </div>
      )}

      <div className="rail">
        <Sidebar variant="rail" />
      </div>

      <main id="main" className="main" ref={mainRef} tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  )
}
