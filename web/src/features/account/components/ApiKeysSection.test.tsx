import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toast } from '@/lib/toast'
import type { ApiKey } from '@/types/api'
import { ApiKeysSection } from './ApiKeysSection'
import { json } from '@/testing/http'

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn(), clearErrors: vi.fn() }) }))

const KEY: ApiKey = {
  id: 'k1',
  name: 'CI',
  mode: 'live',
  prefix: 'mm_live_ab',
  last4: 'wxyz',
  createdAt: '2026-01-05T10:00:00Z',
  lastUsedAt: null,
}

describe('ApiKeysSection', () => {
  let keys: ApiKey[]
  let createAnswer: () => Response
  const calls: Array<{ method: string; path: string; body?: unknown }> = []

  beforeEach(() => {
    keys = [KEY]
    calls.length = 0
    createAnswer = () => {
      const created = { ...KEY, id: 'k2', name: 'Deploy', last4: '9876', secret: 'mm_live_ab' + 'x'.repeat(40) + '9876' }
      keys = [created, ...keys]
      return json(201, { data: created })
    }
    localStorage.clear()
    vi.mocked(toast.error).mockClear()
    vi.stubGlobal(
      'fetch',
      vi.fn((input: string, init: RequestInit = {}) => {
        const url = new URL(input, 'http://app')
        const method = (init.method ?? 'GET').toUpperCase()
        if (url.pathname === '/imageedit/users/guestlogin') return Promise.resolve(json(200, { data: { token: 'g', credits: 0 } }))
        calls.push({ method, path: url.pathname, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined })
        if (url.pathname === '/api/v1/api-keys' && method === 'GET') {
          return Promise.resolve(json(200, { data: keys.map(({ id, name, mode, prefix, last4, createdAt, lastUsedAt }) => ({ id, name, mode, prefix, last4, createdAt, lastUsedAt })) }))
        }
        if (url.pathname === '/api/v1/api-keys' && method === 'POST') return Promise.resolve(createAnswer())
        if (url.pathname.startsWith('/api/v1/api-keys/') && method === 'DELETE') {
          const id = url.pathname.split('/').at(-1)
          keys = keys.filter((key) => key.id !== id)
          return Promise.resolve(json(200, { data: { ok: true } }))
        }
        return Promise.resolve(json(404, { message: 'Not found.' }))
      }),
    )
    const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <ApiKeysSection userEmail="ada@example.com" />
        </MemoryRouter>
      </QueryClientProvider>,
    )
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  it('links to the API documentation', () => {
    expect(screen.getByTestId('api-docs-link').getAttribute('href')).toBe('/docs/api')
  })

  it('lists the keys: name, masked key, created date and "Never used"', async () => {
    const row = await screen.findByTestId('api-key-row')
    expect(row.textContent).toContain('CI')
    expect(row.textContent).toContain('mm_live_ab…wxyz')
    expect(row.textContent).toContain('Never used')
    expect(row.textContent).toMatch(/Created Jan \d+, 2026/)
  })

  it('creates a key: the secret is shown once and the list is fetched again', async () => {
    await screen.findByTestId('api-key-row')
    const button = screen.getByTestId('api-key-create') as HTMLButtonElement
    expect(button.disabled).toBe(true)
    await userEvent.type(screen.getByTestId('api-key-name'), 'Deploy')
    expect(button.disabled).toBe(false)
    await userEvent.click(button)

    const panel = await screen.findByTestId('api-key-secret-panel')
    expect(within(panel).getByTestId('api-key-secret').textContent).toBe('mm_live_ab' + 'x'.repeat(40) + '9876')
    expect(panel.textContent).toContain('Copy this key now: it will not be shown again.')
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'Deploy', mode: 'live' })
    await waitFor(() => expect(screen.getAllByTestId('api-key-row')).toHaveLength(2))
    expect((screen.getByTestId('api-key-name') as HTMLInputElement).value).toBe('')

    await userEvent.click(screen.getByTestId('api-key-dismiss'))
    expect(screen.queryByTestId('api-key-secret-panel')).toBeNull()
  })

  it('creates a test key when asked, and marks test keys in the list', async () => {
    await screen.findByTestId('api-key-row')
    createAnswer = () => {
      const created = { ...KEY, id: 'k3', name: 'Sandbox', mode: 'test' as const, prefix: 'mm_test_cd', secret: 'mm_test_cd' + 'y'.repeat(40) }
      keys = [created, ...keys]
      return json(201, { data: created })
    }
    await userEvent.type(screen.getByTestId('api-key-name'), 'Sandbox')
    await userEvent.click(screen.getByTestId('api-key-test-mode'))
    await userEvent.click(screen.getByTestId('api-key-create'))
    await screen.findByTestId('api-key-secret-panel')
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'Sandbox', mode: 'test' })
    await waitFor(() => expect(screen.getAllByTestId('api-key-row')).toHaveLength(2))
    const [testRow, liveRow] = screen.getAllByTestId('api-key-row') as [HTMLElement, HTMLElement]
    expect(testRow.textContent).toContain('Test')
    expect(liveRow.textContent).not.toContain('Test')
  })

  it('revokes a key only after confirmation', async () => {
    await screen.findByTestId('api-key-row')
    await userEvent.click(screen.getByTestId('api-key-revoke'))
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false)
    await userEvent.click(screen.getByTestId('api-key-revoke-confirm'))
    await waitFor(() => expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/v1/api-keys/k1'))
    await screen.findByTestId('api-keys-empty')
  })

  it("shows the server's message when creating is refused with a 422", async () => {
    createAnswer = () => json(422, { message: 'You already have 10 keys.' })
    await screen.findByTestId('api-key-row')
    await userEvent.type(screen.getByTestId('api-key-name'), 'One more')
    await userEvent.click(screen.getByTestId('api-key-create'))
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('You already have 10 keys.'))
    expect(screen.queryByTestId('api-key-secret-panel')).toBeNull()
  })
})
