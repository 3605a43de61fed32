import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider as JotaiProvider } from 'jotai'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { clearUserSession, saveUserSession } from '@/lib/identity'
import type { CatalogItem } from '@/types/api'
import { SelectBackgroundPage } from './SelectBackgroundPage'

function seed(id: string, name: string, category: string, builtin = false): CatalogItem {
  return { _id: id, name, type: 'background', category, builtin, url: `/b/${id}.jpg`, thumbnailUrl: '', description: '' }
}

// In server order: the built-ins are not first here, the picker puts them first.
const SEEDS: CatalogItem[] = [
  seed('bg-1', 'Neon table', 'studio'),
  seed('white', 'white', 'builtin', true),
  seed('scene-03', 'Sand dune', 'nature'),
  seed('bg-3', 'Neon street', 'street'),
  seed('transparent', 'transparent', 'builtin', true),
  seed('bg-4', 'Cloud arch', 'studio'),
  seed('scene-02', 'Reading room', 'interior'),
]

function serve(url: string): Response {
  const { pathname } = new URL(url, 'http://localhost')
  if (pathname === '/imageedit/seed') {
    return new Response(JSON.stringify({ data: { items: SEEDS, total: SEEDS.length, pagenum: 1, pagesize: 18 } }), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    })
  }
  return new Response(JSON.stringify({ message: `unexpected ${url}` }), { status: 404 })
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <JotaiProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <SelectBackgroundPage />
        </MemoryRouter>
      </QueryClientProvider>
    </JotaiProvider>,
  )
}

const cardNames = () =>
  screen.getAllByTestId('background-card').map((c) => c.querySelector('.choice__label')?.textContent)

describe('SelectBackgroundPage', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', vi.fn((url: string) => Promise.resolve(serve(url))))
    saveUserSession({ userEmail: 'ava@example.com', userToken: 'token-1', userName: 'Ava', userId: 'u1' })
  })

  afterEach(() => {
    cleanup()
    clearUserSession()
    vi.unstubAllGlobals()
  })

  it('shows the names, built-ins first, and a chip per category present with its human label', async () => {
    renderPage()
    await screen.findAllByTestId('background-card')
    expect(cardNames()).toEqual([
      'Pure white',
      'Transparent PNG',
      'Neon table',
      'Sand dune',
      'Neon street',
      'Cloud arch',
      'Reading room',
    ])
    const chips = within(screen.getByTestId('background-categories')).getAllByRole('button')
    expect(chips.map((c) => c.textContent)).toEqual(['All', 'Studio', 'Street', 'Nature', 'Interior'])
    expect(chips[0]!.getAttribute('aria-pressed')).toBe('true')
  })

  it('a category chip narrows the list; the built-ins stay, first; "All" shows every one again', async () => {
    renderPage()
    await screen.findAllByTestId('background-card')
    const group = screen.getByTestId('background-categories')

    await userEvent.click(within(group).getByRole('button', { name: 'Studio' }))
    expect(cardNames()).toEqual(['Pure white', 'Transparent PNG', 'Neon table', 'Cloud arch'])
    expect(within(group).getByRole('button', { name: 'Studio' }).getAttribute('aria-pressed')).toBe('true')

    await userEvent.click(within(group).getByRole('button', { name: 'Nature' }))
    expect(cardNames()).toEqual(['Pure white', 'Transparent PNG', 'Sand dune'])

    await userEvent.click(within(group).getByRole('button', { name: 'All' }))
    expect(cardNames()).toHaveLength(SEEDS.length)
  })
})
