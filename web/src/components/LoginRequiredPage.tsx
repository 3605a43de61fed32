import type { ReactNode } from 'react'
import { useAuth } from '@/hooks/useAuth'

interface LoginRequiredPageProps {
  /** The page's own heading, kept so the visitor knows where they are. */
  heading: string
  /** What logging in gives here, e.g. "Log in to see your dashboard." */
  title: string
  testId: string
  /** More words about the page, when it needs them. */
  children?: ReactNode
}

/** A signed-in page seen by a visitor: its heading and a Login button that opens the login modal. */
export function LoginRequiredPage({ heading, title, testId, children }: LoginRequiredPageProps) {
  const { openLoginPopup } = useAuth()
  return (
    <div className="page">
      <header className="page-header">
        <h1>{heading}</h1>
      </header>
      <div className="empty-state" data-testid={testId}>
        <p className="empty-state__title">{title}</p>
        {children}
        <button type="button" className="btn btn--primary" onClick={() => openLoginPopup()}>
          Login
        </button>
      </div>
    </div>
  )
}
