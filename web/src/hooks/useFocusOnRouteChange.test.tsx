import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { StrictMode, useRef } from 'react'
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useFocusOnRouteChange } from './useFocusOnRouteChange'

function Shell() {
  const main = useRef<HTMLElement>(null)
  useFocusOnRouteChange(main, useLocation().pathname)
  return (
    <>
      <a href="#main">Skip to content</a>
      <Link to="/help">Help</Link>
      <Link to="/help?topic=billing">Billing help</Link>
      <main id="main" ref={main} tabIndex={-1}>
        <Routes>
          <Route path="/" element={<p>Home</p>} />
          <Route path="/help" element={<p>Help page</p>} />
        </Routes>
      </main>
    </>
  )
}

function renderAt(path: string) {
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {})
  render(
    <StrictMode>
      <MemoryRouter initialEntries={[path]}>
        <Shell />
      </MemoryRouter>
    </StrictMode>,
  )
}

describe('useFocusOnRouteChange', () => {
  afterEach(cleanup)

  it('leaves focus alone on the first load, so the first Tab reaches the skip link', async () => {
    renderAt('/')
    expect(document.activeElement).toBe(document.body)
    expect(window.scrollTo).not.toHaveBeenCalled()
    await userEvent.tab()
    expect(document.activeElement?.textContent).toBe('Skip to content')
  })

  it('focuses <main> and scrolls to the top when the route changes', async () => {
    renderAt('/')
    await userEvent.click(screen.getByText('Help'))
    expect(screen.getByText('Help page')).toBeTruthy()
    expect(document.activeElement?.id).toBe('main')
    expect(window.scrollTo).toHaveBeenCalledWith(0, 0)
  })

  it('does not move focus when only the query string changes', async () => {
    renderAt('/help')
    const link = screen.getByText('Billing help')
    await userEvent.click(link)
    expect(document.activeElement).toBe(link)
  })
})
