import { Link, isRouteErrorResponse, useRouteError } from 'react-router'

export function NotFoundPage() {
  return (
    <div className="page">
      <div className="empty-state">
        <p className="empty-state__title">Page not found</p>
        <Link to="/" className="btn btn--primary">
          Go home
        </Link>
      </div>
    </div>
  )
}

/** Route error boundary: also catches failed lazy chunk loads after a deploy. */
export function RouteErrorPage() {
  const error = useRouteError()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  if (notFound) return <NotFoundPage />
  console.error(error)
  return (
    <div className="page">
      <div className="empty-state" role="alert">
        <p className="empty-state__title">Something went wrong</p>
        <p className="muted">Reload the page to try again.</p>
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    </div>
  )
}
