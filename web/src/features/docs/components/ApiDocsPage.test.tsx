import { cleanup, render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiDocsPage } from './ApiDocsPage'

// The reference (Redoc) is its own lazy chunk; here a stand-in shows what it was given.
vi.mock('./ApiReference', () => ({
  default: ({ origin }: { origin: string }) => <p data-testid="reference-stub">reference for {origin}</p>,
}))

describe('ApiDocsPage', () => {
  afterEach(cleanup)

  function renderPage() {
    render(
      <MemoryRouter initialEntries={['/docs/api']}>
        <ApiDocsPage />
      </MemoryRouter>,
    )
  }

  it('shows the quickstart with this site’s origin in the examples', () => {
    renderPage()
    const origin = window.location.origin
    const curl = screen.getByTestId('api-docs-curl').textContent ?? ''
    expect(curl).toContain(`-F file=@photo.jpg \\\n  ${origin}/api/v1/uploads`)
    expect(curl).toContain(`${origin}/api/v1/generations`)
    expect(curl).toContain('Idempotency-Key:')
    expect(curl).toContain('"backgroundId": "white"')
    expect(curl).toContain(`${origin}/api/v1/generations/GEN_ID`)
    expect(screen.getByTestId('api-docs-python').textContent).toContain(`base_url="${origin}"`)
    expect(screen.getByTestId('api-docs-cli').textContent).toContain(
      'metamodel generate --service burstreplace --background white photos/*.jpg --out results/',
    )
    expect(screen.getByRole('link', { name: /User Setting → API keys/ }).getAttribute('href')).toBe('/user-setting')
  })

  it('covers test mode, errors and limits, and says webhooks are still to come', () => {
    renderPage()
    const text = screen.getByTestId('api-docs').textContent ?? ''
    for (const part of ['mm_test_', '"livemode": false', 'RateLimit-Remaining', 'Retry-After', 'starting_after']) {
      expect(text).toContain(part)
    }
    for (const status of ['401', '402', '404', '422', '429', '503']) {
      expect(screen.getByRole('cell', { name: status })).toBeTruthy()
    }
    expect(text.match(/webhook/gi)).toHaveLength(1)
  })

  it('loads the reference lazily, for this origin', async () => {
    renderPage()
    expect((await screen.findByTestId('reference-stub')).textContent).toBe(`reference for ${window.location.origin}`)
  })
})
