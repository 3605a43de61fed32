import { NavLink, useLocation, useNavigate } from 'react-router'
import { logout } from '@/features/auth/session'
import { EnterpriseDialog } from '@/features/enterprise/components/EnterpriseDialog'
import { useOpenEnterpriseDialog } from '@/features/enterprise/stores/dialog'
import { useAuth } from '@/hooks/useAuth'
import { useCredits } from '@/hooks/useCredits'
import { IconCalendar, IconCoins, IconLogin, IconLogout } from '@/components/ui/icons'
import { formatCredits } from '@/lib/format'
import { useIsAdmin } from '@/hooks/useIsAdmin'
import { ADMIN_ITEMS, BOTTOM_ITEMS, FLOW_PATHS, TOP_ITEMS, type NavItem } from './navItems'
import { BrandLink } from '@/components/BrandLink'

interface SidebarProps {
  /** rail: the fixed desktop/tablet sidebar; drawer: the mobile menu panel. */
  variant: 'rail' | 'drawer'
  onNavigate?: () => void
}

function Item({ item, onNavigate }: { item: NavItem; onNavigate?: () => void }) {
  const { pathname } = useLocation()
  const inFlow = item.to === '/upload-images' && FLOW_PATHS.includes(pathname)
  return (
    <li>
      <NavLink
        to={item.to}
        className={({ isActive }) => `nav-link${isActive || inFlow ? ' nav-link--active' : ''}`}
        title={item.label}
        data-testid={item.testId}
        onClick={onNavigate}
      >
        <span className="nav-link__icon">{item.icon}</span>
        <span className="nav-link__label">{item.label}</span>
      </NavLink>
    </li>
  )
}

export function Sidebar({ variant, onNavigate }: SidebarProps) {
  const { isAuthenticated, openLoginPopup } = useAuth()
  const navigate = useNavigate()
  const openEnterpriseDialog = useOpenEnterpriseDialog()
  // Shown to signed-in users only: a visitor's would start a guest session on every visit.
  const { data: credits } = useCredits({ enabled: isAuthenticated })
  const { isAdmin } = useIsAdmin({ enabled: isAuthenticated })
  const visible = (items: NavItem[]) => items.filter((i) => !i.requiresAuth || isAuthenticated)
  const total = credits ? formatCredits(credits.total) : '–'
  const creditLabel = credits ? `Credit: ${total} credits available` : 'Credit: balance loading'

  return (
    <nav className={`sidebar sidebar--${variant}`} aria-label="Main">
      <BrandLink onClick={onNavigate} />

      <ul className="nav-list">
        {visible(TOP_ITEMS).map((item) => (
          <Item key={item.to} item={item} onNavigate={onNavigate} />
        ))}
      </ul>

      {isAdmin && (
        <ul className="nav-list nav-list--admin" aria-label="Operators">
          {ADMIN_ITEMS.map((item) => (
            <Item key={item.to} item={item} onNavigate={onNavigate} />
          ))}
        </ul>
      )}

      <div className="sidebar__spacer" />

      <ul className="nav-list">
        {/* Credit: signed-in users only (spec §6); guests see their balance where they spend it. */}
        {isAuthenticated && (
          <li>
            <NavLink
              to="/user-setting?from=credit"
              className="nav-link nav-link--credit"
              title={creditLabel}
              aria-label={creditLabel}
              data-testid="nav-credit"
              onClick={onNavigate}
            >
              <span className="nav-link__icon">
                <IconCoins />
              </span>
              <span className="nav-link__label">Credit</span>
              {/* A space, so the visible text reads "Credit 9" inside the label "Credit: 9 credits
                  available" (WCAG 2.5.3), not "Credit9"; a flex item, it takes no room. */}{' '}
              <span className="credit-badge" data-testid="credit-total">
                {total}
              </span>
            </NavLink>
          </li>
        )}
        {visible(BOTTOM_ITEMS).map((item) => (
          <Item key={item.to} item={item} onNavigate={onNavigate} />
        ))}
        <li>
          {isAuthenticated ? (
            <button
              type="button"
              className="nav-link"
              title="Logout"
              onClick={() => {
                onNavigate?.()
                logout(navigate)
              }}
              data-testid="nav-logout"
            >
              <span className="nav-link__icon">
                <IconLogout />
              </span>
              <span className="nav-link__label">Logout</span>
            </button>
          ) : (
            <button
              type="button"
              className="nav-link"
              title="Login"
              onClick={() => {
                onNavigate?.()
                openLoginPopup()
              }}
              aria-haspopup="dialog"
              data-testid="nav-login"
            >
              <span className="nav-link__icon">
                <IconLogin />
              </span>
              <span className="nav-link__label">Login</span>
            </button>
          )}
        </li>
      </ul>

      <button
        type="button"
        className="btn btn--primary btn--block sidebar__cta"
        title="Book An Appointment"
        aria-haspopup="dialog"
        onClick={() => {
          onNavigate?.()
          openEnterpriseDialog()
        }}
        data-testid="book-appointment"
      >
        <IconCalendar size={18} />
        <span className="sidebar__cta-label">Book An Appointment</span>
      </button>
      {/* The Enterprise Solutions dialog, once (the rail is always mounted; it renders into <body>). */}
      {variant === 'rail' && <EnterpriseDialog />}
    </nav>
  )
}
