import { Link } from 'react-router'

export function ComingSoonPage({ title, description }: { title: string; description?: string }) {
  return (
    <div className="page">
      <header className="page-header">
        <h1>{title}</h1>
      </header>
      <div className="empty-state" data-testid="coming-soon">
        <p className="empty-state__title">This page is coming soon.</p>
        <p className="muted">{description ?? 'We are working on it. In the meantime you can create new images as a guest.'}</p>
        <Link to="/upload-images" className="btn btn--primary">
          Create New Image
        </Link>
      </div>
    </div>
  )
}
