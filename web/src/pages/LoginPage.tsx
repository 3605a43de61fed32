import { Link } from 'react-router'

/** Shown without sidebar or header (spec). Accounts are not built yet. */
export function LoginPage() {
  return (
    <div className="auth-screen">
      <div className="auth-card">
        <Link to="/" className="brand" aria-label="MetaModel home">
          <span className="brand__mark" aria-hidden="true">
            M
          </span>
          <span className="brand__name">MetaModel</span>
        </Link>
        <h1>Login/Sign up</h1>
        <p className="muted">
          Accounts, with 10 free credits, are coming soon. You can already create images as a guest.
        </p>
        <Link to="/upload-images" className="btn btn--primary btn--block">
          Continue as guest
        </Link>
        <Link to="/" className="btn btn--ghost btn--block">
          Back to home
        </Link>
      </div>
    </div>
  )
}
