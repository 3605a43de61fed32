import { useEffect, useRef, useState } from 'react'
import { Link, Outlet, useLocation } from 'react-router'
import { IconClose, IconMenu } from '@/components/ui/icons'
import { Sidebar } from './Sidebar'

export function AppLayout() {
  const [menuOpen, setMenuOpen] = useState(false)
  const { pathname } = useLocation()
  const mainRef = useRef<HTMLElement>(null)

  // Move focus to the content on navigation so keyboard and screen-reader
  // users land on the new page rather than the old link.
  useEffect(() => {
    mainRef.current?.focus({ preventScroll: true })
    window.scrollTo(0, 0)
  }, [pathname])

  useEffect(() => {
    if (!menuOpen) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [menuOpen])

  const close = () => setMenuOpen(false)

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="mobile-header">
        <Link to="/" className="brand" aria-label="MetaModel home">
          <span className="brand__mark" aria-hidden="true">
            M
          </span>
          <span className="brand__name">MetaModel</span>
        </Link>
        <button
          type="button"
          className="icon-btn"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen((o) => !o)}
          data-testid="mobile-menu-button"
        >
          {menuOpen ? <IconClose /> : <IconMenu />}
        </button>
      </header>

      {menuOpen && (
        <div className="drawer" id="mobile-menu">
          <div className="drawer__backdrop" onClick={close} aria-hidden="true" />
          <div className="drawer__panel" role="dialog" aria-modal="true" aria-label="Menu">
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
