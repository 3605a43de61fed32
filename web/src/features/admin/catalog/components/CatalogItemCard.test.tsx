import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { clearUserSession, saveUserSession } from '@/lib/identity'
import { toast } from '@/lib/toast'
import type { AdminCatalogItem, CatalogKind } from '../api/keys'
import { CatalogItemCard } from './CatalogItemCard'

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn() }) }))

function item(fields: Partial<AdminCatalogItem>): AdminCatalogItem {
  return {
    _id: 'model-1',
    name: 'Mei',
    type: 'model',
    category: 'studio',
    description: 'Slim build · fair skin',
    gender: 'female',
    skinTone: 'fair',
    bodyType: 'slim',
    builtin: false,
    published: true,
    visibility: 'public',
    sort: 1,
    url: '/m/model-1.jpg',
    thumbnailUrl: '/m/model-1-t.jpg',
    ...fields,
  }
}

function renderCard(entry: AdminCatalogItem, kind: CatalogKind = 'model') {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <ul>
        <CatalogItemCard item={entry} kind={kind} first last />
      </ul>
    </QueryClientProvider>,
  )
}

describe('CatalogItemCard', () => {
  let fetchMock: ReturnType<typeof vi.fn>

  beforeEach(() => {
    fetchMock = vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify({ data: item({}) }), { status: 200, headers: { 'Content-Type': 'application/json' } }),
      ),
    )
    vi.stubGlobal('fetch', fetchMock)
    saveUserSession({ userEmail: 'ops@example.com', userToken: 'token-1', userName: 'Ops', userId: 'u1' })
  })

  afterEach(() => {
    cleanup()
    clearUserSession()
    vi.unstubAllGlobals()
  })

  /** The JSON body of the one PATCH sent. */
  function sentChanges(): Record<string, unknown> {
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/v1/admin/catalog/model-1')
    expect(init.method).toBe('PATCH')
    return JSON.parse(String(init.body)) as Record<string, unknown>
  }

  it("shows a model's description and attributes", () => {
    renderCard(item({}))
    expect(screen.getByTestId('catalog-item-description').textContent).toBe('Slim build · fair skin')
    expect(screen.getByTestId('catalog-item-attributes').textContent).toBe('Female · Slim · Fair skin')
  })

  it('edits the description and attributes; "Not set" clears one (null)', async () => {
    renderCard(item({}))
    await userEvent.click(screen.getByTestId('catalog-edit'))
    expect((screen.getByTestId('catalog-edit-gender') as HTMLSelectElement).value).toBe('female')
    const description = screen.getByTestId('catalog-edit-description')
    await userEvent.clear(description)
    await userEvent.type(description, 'Athletic build · tan skin')
    await userEvent.selectOptions(screen.getByTestId('catalog-edit-skinTone'), 'Tan')
    await userEvent.selectOptions(screen.getByTestId('catalog-edit-bodyType'), 'Athletic')
    await userEvent.selectOptions(screen.getByTestId('catalog-edit-gender'), 'Not set')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))

    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Saved.'))
    expect(sentChanges()).toEqual({
      name: 'Mei',
      category: 'studio',
      description: 'Athletic build · tan skin',
      visibility: 'public',
      gender: null,
      skinTone: 'tan',
      bodyType: 'athletic',
    })
  })

  it('rejects an empty name and a too long description without calling the server', async () => {
    renderCard(item({}))
    await userEvent.click(screen.getByTestId('catalog-edit'))
    await userEvent.clear(screen.getByTestId('catalog-edit-name'))
    await userEvent.click(screen.getByTestId('catalog-edit-description'))
    await userEvent.paste('x'.repeat(300))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(screen.getByText('Give it a name.')).toBeTruthy()
    expect(screen.getByTestId('catalog-edit-description-error').textContent).toBe(
      'Keep the description to 280 characters or fewer.',
    )
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('for a background: edits the category and description, sends no model attributes', async () => {
    renderCard(
      item({ _id: 'model-1', type: 'background', name: 'Dune', category: 'nature', description: '', gender: null, skinTone: null, bodyType: null }),
      'background',
    )
    expect(screen.queryByTestId('catalog-item-attributes')).toBeNull()
    await userEvent.click(screen.getByTestId('catalog-edit'))
    expect(screen.queryByTestId('catalog-edit-gender')).toBeNull()
    const category = screen.getByTestId('catalog-edit-category')
    await userEvent.clear(category)
    await userEvent.type(category, 'street')
    await userEvent.type(screen.getByTestId('catalog-edit-description'), 'Road between poplars')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledOnce())
    expect(sentChanges()).toEqual({ name: 'Dune', category: 'street', description: 'Road between poplars', visibility: 'public' })
  })
})
