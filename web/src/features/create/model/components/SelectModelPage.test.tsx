import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider as JotaiProvider } from 'jotai'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { clearUserSession, saveUserSession } from '@/lib/identity'
import type { CatalogItem } from '@/types/api'
import { SelectModelPage } from './SelectModelPage'

function model(id: string, fields: Partial<CatalogItem>): CatalogItem {
  return {
    _id: id,
    name: id,
    type: 'model',
    category: 'studio',
    builtin: false,
    url: `/m/${id}.jpg`,
    thumbnailUrl: `/m/${id}-t.jpg`,
    description: '',
    ...fields,
  }
}

const MEI = model('model-1', {
  name: 'Mei',
  description: 'Slim build · fair skin · long dark hair, ponytail · 172 cm',
  gender: 'female',
  skinTone: 'fair',
  bodyType: 'slim',
})
// No description: the card says what is known of her instead.
const AMARA = model('model-4', { name: 'Amara', gender: 'female', skinTone: 'deep', bodyType: 'curvy' })

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })
}

/** The model picker's API: the page is empty for men, 30 models in all otherwise (3 pages). */
function serve(url: string): Response {
  const { pathname, searchParams } = new URL(url, 'http://localhost')
  if (pathname === '/api/v1/model/categories') return json({ data: { items: ['studio'] } })
  if (pathname === '/api/v1/model/filters')
    return json({ data: { gender: ['female', 'male'], skinTone: ['fair', 'deep'], bodyType: [] } })
  if (pathname === '/api/v1/model') {
    const empty = searchParams.get('gender') === 'male'
    const pageNum = Number(searchParams.get('pageNum'))
    return json({ data: { items: empty ? [] : [MEI, AMARA], total: empty ? 0 : 30, pageNum, pageSize: 12 } })
  }
  return new Response(JSON.stringify({ message: `unexpected ${url}` }), { status: 404 })
}

let fetchMock: ReturnType<typeof vi.fn>

/** The query of the last model list request. */
function lastModelQuery(): URLSearchParams {
  const urls = fetchMock.mock.calls
    .map(([url]) => new URL(String(url), 'http://localhost'))
    .filter((u) => u.pathname === '/api/v1/model')
  const last = urls.at(-1)
  if (!last) throw new Error('no model list was asked for')
  return last.searchParams
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <JotaiProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <SelectModelPage />
        </MemoryRouter>
      </QueryClientProvider>
    </JotaiProvider>,
  )
}

async function chip(group: string, name: string): Promise<HTMLElement> {
  return within(await screen.findByTestId(`model-filter-${group}`)).getByRole('button', { name })
}

describe('SelectModelPage', () => {
  beforeEach(() => {
    fetchMock = vi.fn((url: string) => Promise.resolve(serve(url)))
    vi.stubGlobal('fetch', fetchMock)
    saveUserSession({ userEmail: 'ava@example.com', userToken: 'token-1', userName: 'Ava', userId: 'u1' })
  })

  afterEach(() => {
    cleanup()
    clearUserSession()
    vi.unstubAllGlobals()
  })

  it("shows each model's name and short description, with a fallback when it has none", async () => {
    renderPage()
    const cards = await screen.findAllByTestId('model-card')
    expect(cards.map((c) => c.querySelector('.choice__label')?.textContent)).toEqual(['Mei', 'Amara'])
    expect(cards[0]!.querySelector('.choice__sub')?.textContent).toBe(MEI.description)
    expect(cards[1]!.querySelector('.choice__sub')?.textContent).toBe('Female · Curvy · Deep skin')
    expect(cards[0]!.getAttribute('aria-label')).toBe(`Mei, ${MEI.description}`)
    expect(screen.queryByText(/Model \d/)).toBeNull()
  })

  it('offers only the filters that have values, with human labels and "All"', async () => {
    renderPage()
    const gender = await screen.findByTestId('model-filter-gender')
    expect(within(gender).getAllByRole('button').map((b) => b.textContent)).toEqual(['All', 'Female', 'Male'])
    expect(within(await screen.findByTestId('model-filter-skinTone')).getAllByRole('button').map((b) => b.textContent)).toEqual([
      'All',
      'Fair',
      'Deep',
    ])
    // No published model has a body type: no body type filter.
    expect(screen.queryByTestId('model-filter-bodyType')).toBeNull()
  })

  it('sends the chosen filters as query params, and "All" drops one', async () => {
    renderPage()
    await screen.findAllByTestId('model-card')
    const first = lastModelQuery()
    expect(first.has('gender') || first.has('skinTone') || first.has('bodyType')).toBe(false)

    await userEvent.click(await chip('gender', 'Female'))
    await vi.waitFor(() => expect(lastModelQuery().get('gender')).toBe('female'))
    expect((await chip('gender', 'Female')).getAttribute('aria-pressed')).toBe('true')

    await userEvent.click(await chip('skinTone', 'Fair'))
    await vi.waitFor(() => expect(lastModelQuery().get('skinTone')).toBe('fair'))
    expect(lastModelQuery().get('gender')).toBe('female')
    expect(lastModelQuery().get('visibility')).toBe('public')

    await userEvent.click(await chip('gender', 'All'))
    await vi.waitFor(() => expect(lastModelQuery().has('gender')).toBe(false))
    expect(lastModelQuery().get('skinTone')).toBe('fair')
  })

  it('goes back to the first page when a filter changes', async () => {
    renderPage()
    await screen.findAllByTestId('model-card')
    await userEvent.click(screen.getByTestId('models-next'))
    await vi.waitFor(() => expect(lastModelQuery().get('pageNum')).toBe('2'))
    await screen.findByText('Page 2 of 3')

    await userEvent.click(await chip('skinTone', 'Deep'))
    await vi.waitFor(() => expect(lastModelQuery().get('skinTone')).toBe('deep'))
    expect(lastModelQuery().get('pageNum')).toBe('1')
    await screen.findByText('Page 1 of 3')
  })

  it('says when no model matches, and "Clear filters" shows every model again', async () => {
    renderPage()
    await screen.findAllByTestId('model-card')
    await userEvent.click(await chip('gender', 'Male'))
    const empty = await screen.findByTestId('models-empty')
    expect(empty.textContent).toContain('No models match these filters')

    await userEvent.click(within(empty).getByRole('button', { name: 'Clear filters' }))
    expect(await screen.findAllByTestId('model-card')).toHaveLength(2)
    expect(lastModelQuery().has('gender')).toBe(false)
    expect((await chip('gender', 'All')).getAttribute('aria-pressed')).toBe('true')
  })
})
