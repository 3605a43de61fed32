import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toast } from '@/lib/toast'
import type { WebhookDelivery, WebhookEndpoint } from '@/types/api'
import { WebhooksSection } from './WebhooksSection'
import { json } from '@/testing/http'

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn(), clearErrors: vi.fn() }) }))

const ENDPOINT: WebhookEndpoint = {
  id: 'we1',
  url: 'https://shop.example.com/hooks/metamodel',
  description: 'Catalog',
  events: ['generation.completed', 'generation.failed', 'task.completed'],
  status: 'enabled',
  disabledReason: null,
  failingSince: null,
  createdAt: '2026-01-05T10:00:00Z',
  livemode: true,
}

const DISABLED: WebhookEndpoint = {
  ...ENDPOINT,
  id: 'we2',
  url: 'https://old.example.com/hook',
  description: '',
  events: ['generation.failed'],
  status: 'disabled',
  disabledReason: 'Every attempt failed for 3 days.',
  failingSince: '2026-01-01T10:00:00Z',
}

const SUCCEEDED: WebhookDelivery = {
  id: 'msg_2abc',
  eventType: 'generation.completed',
  status: 'succeeded',
  attempts: 1,
  lastStatusCode: 200,
  lastDurationMs: 42,
  lastError: null,
  lastAttemptAt: '2026-01-06T10:00:01Z',
  deliveredAt: '2026-01-06T10:00:01Z',
  createdAt: '2026-01-06T10:00:00Z',
  payload: '{"type": "generation.completed", "timestamp": "2026-01-06T10:00:00Z", "data": {"id": "gen_1"}}',
}

const PENDING: WebhookDelivery = {
  ...SUCCEEDED,
  id: 'msg_1pend',
  eventType: 'task.completed',
  status: 'pending',
  attempts: 2,
  lastStatusCode: 500,
  lastDurationMs: 15,
  lastError: 'HTTP 500',
  deliveredAt: null,
}

const SECRET = 'whsec_' + 'c2VjcmV0'.repeat(4)

describe('WebhooksSection', () => {
  let endpoints: WebhookEndpoint[]
  let deliveries: WebhookDelivery[]
  let createAnswer: () => Response
  const calls: Array<{ method: string; path: string; search: string; body?: unknown }> = []

  beforeEach(() => {
    endpoints = [ENDPOINT, DISABLED]
    deliveries = [SUCCEEDED, PENDING]
    calls.length = 0
    createAnswer = () => {
      const created = { ...ENDPOINT, id: 'we3', url: 'https://new.example.com/hook', description: '' }
      endpoints = [created, ...endpoints]
      return json(201, { data: { ...created, secret: SECRET } })
    }
    localStorage.clear()
    vi.mocked(toast.error).mockClear()
    vi.mocked(toast.success).mockClear()
    vi.stubGlobal(
      'fetch',
      vi.fn((input: string, init: RequestInit = {}) => {
        const url = new URL(input, 'http://app')
        const method = (init.method ?? 'GET').toUpperCase()
        const path = url.pathname
        if (path === '/imageedit/users/guestlogin') return Promise.resolve(json(200, { data: { token: 'g', credits: 0 } }))
        calls.push({ method, path, search: url.search, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined })
        if (path === '/api/v1/webhooks' && method === 'GET') return Promise.resolve(json(200, { data: endpoints }))
        if (path === '/api/v1/webhooks' && method === 'POST') return Promise.resolve(createAnswer())
        let match = path.match(/^\/api\/v1\/webhooks\/(\w+)$/)
        if (match && method === 'DELETE') {
          endpoints = endpoints.filter((endpoint) => endpoint.id !== match?.[1])
          return Promise.resolve(json(200, { data: { ok: true } }))
        }
        match = path.match(/^\/api\/v1\/webhooks\/(\w+)\/enable$/)
        if (match && method === 'POST') {
          endpoints = endpoints.map((e) => (e.id === match?.[1] ? { ...e, status: 'enabled', disabledReason: null, failingSince: null } : e))
          return Promise.resolve(json(200, { data: endpoints.find((e) => e.id === match?.[1]) }))
        }
        if (/^\/api\/v1\/webhooks\/\w+\/deliveries$/.test(path) && method === 'GET') {
          return Promise.resolve(json(200, { data: deliveries }))
        }
        match = path.match(/^\/api\/v1\/webhooks\/\w+\/deliveries\/(\w+)\/resend$/)
        if (match && method === 'POST') {
          const again = { ...SUCCEEDED, status: 'pending' as const }
          deliveries = deliveries.map((d) => (d.id === match?.[1] ? again : d))
          return Promise.resolve(json(202, { data: again }))
        }
        return Promise.resolve(json(404, { message: 'Not found.' }))
      }),
    )
    const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <WebhooksSection userEmail="ada@example.com" />
        </MemoryRouter>
      </QueryClientProvider>,
    )
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  function rowOf(url: string): HTMLElement {
    const row = screen.getAllByTestId('webhook-row').find((r) => r.textContent?.includes(url))
    if (!row) throw new Error(`no row for ${url}`)
    return row
  }

  it('lists the endpoints: URL, events, Enabled or Disabled with the reason, created date', async () => {
    await waitFor(() => expect(screen.getAllByTestId('webhook-row')).toHaveLength(2))
    const list = screen.getByRole('list', { name: 'Webhook endpoints' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(2)
    const enabled = rowOf(ENDPOINT.url)
    expect(within(enabled).getByTestId('webhook-status').textContent).toBe('Enabled')
    for (const event of ENDPOINT.events) expect(enabled.textContent).toContain(event)
    expect(enabled.textContent).toContain('Catalog')
    expect(enabled.textContent).toMatch(/Created Jan \d+, 2026/)
    expect(within(enabled).queryByTestId('webhook-enable')).toBeNull()
    const disabled = rowOf(DISABLED.url)
    expect(within(disabled).getByTestId('webhook-status').textContent).toBe('Disabled')
    expect(within(disabled).getByTestId('webhook-disabled-reason').textContent).toContain('Every attempt failed for 3 days.')
    expect(screen.getByTestId('webhooks-docs-link').getAttribute('href')).toBe('/docs/api#webhooks')
  })

  it('adds an endpoint with every event checked: the secret is shown once and the list is fetched again', async () => {
    await screen.findAllByTestId('webhook-row')
    const button = screen.getByRole('button', { name: 'Add endpoint' }) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    for (const name of ['generation.completed', 'generation.failed', 'task.completed']) {
      expect((screen.getByRole('checkbox', { name: new RegExp(name.replace('.', '\\.')) }) as HTMLInputElement).checked).toBe(true)
    }
    await userEvent.type(screen.getByLabelText('Endpoint URL'), 'https://new.example.com/hook')
    expect(button.disabled).toBe(false)
    await userEvent.click(button)

    const panel = await screen.findByTestId('webhook-secret-panel')
    expect(within(panel).getByTestId('webhook-secret').textContent).toBe(SECRET)
    expect(panel.textContent).toContain('Copy this secret now: it will not be shown again.')
    expect(calls.find((call) => call.method === 'POST' && call.path === '/api/v1/webhooks')?.body).toEqual({
      url: 'https://new.example.com/hook',
      events: ['generation.completed', 'generation.failed', 'task.completed'],
      description: '',
    })
    await waitFor(() => expect(screen.getAllByTestId('webhook-row')).toHaveLength(3))
    expect((screen.getByLabelText('Endpoint URL') as HTMLInputElement).value).toBe('')
    expect(document.body.textContent?.split(SECRET)).toHaveLength(2) // once, in the panel only

    await userEvent.click(screen.getByRole('button', { name: 'Done' }))
    expect(screen.queryByTestId('webhook-secret-panel')).toBeNull()
    expect(document.body.textContent).not.toContain(SECRET)
  })

  it('sends only the checked events and the description', async () => {
    await screen.findAllByTestId('webhook-row')
    await userEvent.type(screen.getByLabelText('Endpoint URL'), 'https://new.example.com/hook')
    await userEvent.type(screen.getByLabelText('Description (optional)'), 'Failures')
    await userEvent.click(screen.getByRole('checkbox', { name: /generation\.completed/ }))
    await userEvent.click(screen.getByRole('checkbox', { name: /task\.completed/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }))
    await screen.findByTestId('webhook-secret-panel')
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      url: 'https://new.example.com/hook',
      events: ['generation.failed'],
      description: 'Failures',
    })
  })

  it('refuses an address that is not a URL without asking the server', async () => {
    await screen.findAllByTestId('webhook-row')
    await userEvent.type(screen.getByLabelText('Endpoint URL'), 'shop.example.com/hook')
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }))
    expect((await screen.findByRole('alert')).textContent).toContain('https://')
    expect(calls.some((call) => call.method === 'POST')).toBe(false)
  })

  it("shows the server's message when adding is refused with a 422", async () => {
    createAnswer = () => json(422, { message: 'The URL must point to a public address.' })
    await screen.findAllByTestId('webhook-row')
    await userEvent.type(screen.getByLabelText('Endpoint URL'), 'http://127.0.0.1:9000/hook')
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }))
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('The URL must point to a public address.'))
    expect(screen.queryByTestId('webhook-secret-panel')).toBeNull()
  })

  it('deletes an endpoint only after confirmation', async () => {
    await screen.findAllByTestId('webhook-row')
    const row = rowOf(ENDPOINT.url)
    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }))
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false)
    expect(within(row).getByRole('group', { name: `Confirm deleting ${ENDPOINT.url}` })).toBeTruthy()
    await userEvent.click(within(row).getByRole('button', { name: 'Yes, delete' }))
    await waitFor(() => expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/v1/webhooks/we1'))
    await waitFor(() => expect(screen.getAllByTestId('webhook-row')).toHaveLength(1))
  })

  it('keeps the endpoint when the deletion is not confirmed', async () => {
    await screen.findAllByTestId('webhook-row')
    const row = rowOf(ENDPOINT.url)
    await userEvent.click(within(row).getByRole('button', { name: 'Delete' }))
    await userEvent.click(within(row).getByRole('button', { name: 'Keep' }))
    expect(within(row).getByRole('button', { name: 'Delete' })).toBeTruthy()
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false)
  })

  it('enables a disabled endpoint', async () => {
    await screen.findAllByTestId('webhook-row')
    await userEvent.click(within(rowOf(DISABLED.url)).getByRole('button', { name: 'Enable' }))
    await waitFor(() => expect(calls.find((call) => call.method === 'POST')?.path).toBe('/api/v1/webhooks/we2/enable'))
    await waitFor(() => expect(within(rowOf(DISABLED.url)).getByTestId('webhook-status').textContent).toBe('Enabled'))
  })

  it('shows the delivery log, resends a finished delivery and refreshes', async () => {
    await screen.findAllByTestId('webhook-row')
    const row = rowOf(ENDPOINT.url)
    const toggle = within(row).getByRole('button', { name: 'Deliveries' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    await userEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')

    const log = await within(row).findByRole('region', { name: `Deliveries to ${ENDPOINT.url}` })
    await waitFor(() => expect(within(log).getAllByTestId('webhook-delivery-row')).toHaveLength(2))
    const get = calls.find((call) => call.path === '/api/v1/webhooks/we1/deliveries')
    expect(get?.search).toBe('?limit=50')
    const [done, pending] = within(log).getAllByTestId('webhook-delivery-row') as [HTMLElement, HTMLElement]
    expect(done.textContent).toContain('generation.completed')
    expect(done.textContent).toContain('Succeeded')
    expect(within(done).getByTestId('webhook-delivery-code').textContent).toBe('200')
    expect(done.textContent).toContain('42 ms')
    expect(done.getAttribute('data-delivery-id')).toBe('msg_2abc')
    expect(pending.textContent).toContain('Pending')
    expect(pending.textContent).toContain('HTTP 500')
    expect(within(pending).queryByRole('button', { name: /Resend/ })).toBeNull()

    await userEvent.click(within(done).getByRole('button', { name: 'Payload' }))
    expect(within(log).getByTestId('webhook-delivery-payload').textContent).toContain('"type": "generation.completed"')

    await userEvent.click(within(done).getByRole('button', { name: /Resend/ }))
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.path).toBe('/api/v1/webhooks/we1/deliveries/msg_2abc/resend'),
    )
    await waitFor(() => expect(toast.success).toHaveBeenCalled())
    // The log is fetched again after the resend.
    await waitFor(() => expect(calls.filter((call) => call.path === '/api/v1/webhooks/we1/deliveries')).toHaveLength(2))

    await userEvent.click(within(log).getByRole('button', { name: /Refresh/ }))
    await waitFor(() => expect(calls.filter((call) => call.path === '/api/v1/webhooks/we1/deliveries')).toHaveLength(3))
  })

  it("shows the server's message when a resend is refused with a 409", async () => {
    await screen.findAllByTestId('webhook-row')
    const fetchMock = vi.mocked(fetch)
    const answer = fetchMock.getMockImplementation()
    fetchMock.mockImplementation((input, init) => {
      const path = new URL(String(input), 'http://app').pathname
      if (path.endsWith('/resend')) return Promise.resolve(json(409, { message: 'The endpoint is disabled.' }))
      return answer ? answer(input, init) : Promise.resolve(json(404, {}))
    })
    const row = rowOf(ENDPOINT.url)
    await userEvent.click(within(row).getByRole('button', { name: 'Deliveries' }))
    const [done] = await within(row).findAllByTestId('webhook-delivery-row')
    await userEvent.click(within(done as HTMLElement).getByRole('button', { name: /Resend/ }))
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('The endpoint is disabled.'))
  })
})
