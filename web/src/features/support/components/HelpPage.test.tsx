import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HelpPage } from './HelpPage'

const config = {
  maxUploadBytes: 20 * 1024 * 1024,
  maxMegapixels: 40,
  minImageSide: 256,
  maxInputsPerGeneration: 20,
  acceptedTypes: ['image/jpeg', 'image/png', 'image/webp'],
  features: { googleLogin: true, showcase: true, contact: true },
}

function renderHelp() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <HelpPage />
      </MemoryRouter>
    </QueryClientProvider>,
  )
}

describe('HelpPage', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ data: config }), { headers: { 'Content-Type': 'application/json' } })),
    )
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  it('links to the image check (/verify)', () => {
    renderHelp()
    expect(screen.getByRole('heading', { level: 2, name: 'Is an image from MetaModel?' })).toBeTruthy()
    expect(screen.getByTestId('help-verify').getAttribute('href')).toBe('/verify')
  })

  it("quotes the server's limits and filters on question and answer text", async () => {
    renderHelp()
    await screen.findByText(/up to 20 MB and 40 megapixels each/)
    const all = screen.getAllByTestId('help-item').length
    expect(all).toBeGreaterThan(8)

    await userEvent.type(screen.getByTestId('help-search'), 'megapixels')
    const items = screen.getAllByTestId('help-item')
    expect(items).toHaveLength(1)
    expect(items[0]!.textContent).toContain('Which photos can I upload?')
    // Opened, so the matching answer is visible.
    expect(items[0]!.hasAttribute('open')).toBe(true)

    await userEvent.clear(screen.getByTestId('help-search'))
    expect(screen.getAllByTestId('help-item')).toHaveLength(all)
  })

  it('shows "no results" with a way to clear the search and to contact us', async () => {
    renderHelp()
    await userEvent.type(screen.getByTestId('help-search'), 'blockchain')
    const empty = screen.getByTestId('help-no-results')
    expect(empty.textContent).toContain('No answers match “blockchain”.')
    expect(screen.getAllByRole('link', { name: 'Contact us' })[0]!.getAttribute('href')).toBe('/contact')

    await userEvent.click(screen.getByRole('button', { name: 'Clear the search' }))
    expect(screen.queryByTestId('help-no-results')).toBeNull()
    expect(screen.getAllByTestId('help-item').length).toBeGreaterThan(8)
  })
})
