import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore, Provider } from 'jotai'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { saveUserSession } from '@/lib/identity'
import { toast } from '@/lib/toast'
import { authDispatchAtom, authStateAtom } from '@/stores/auth'
import { AdminShowcasePage } from './AdminShowcasePage'
import { json } from '@/testing/http'

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn() }) }))

const pair = (taskId: string, showcased: boolean) => ({
  taskId,
  service: 'bodySwap',
  inputUrl: `http://s3/in/${taskId}`,
  inputThumbnailUrl: `http://s3/in-thumb/${taskId}`,
  outputUrl: `http://s3/out/${taskId}`,
  outputThumbnailUrl: `http://s3/out-thumb/${taskId}`,
  showcased,
})

const image = (taskId: string, edited = false) => ({
  taskId,
  status: 'completed',
  progress: 100,
  stage: 'completed',
  inputKey: `uploads/a/${taskId}.jpg`,
  inputThumbnailUrl: `http://s3/t/${taskId}`,
  outputs: [{ key: `outputs/${taskId}.jpg`, url: `http://s3/o/${taskId}`, thumbnailUrl: `http://s3/ot/${taskId}` }],
  error: null,
  edited: edited ? { key: 'edits/x.jpg', url: 'http://s3/e', thumbnailUrl: 'http://s3/et' } : null,
  shared: false,
})

const generation = (generationId: string, edited = false) => ({
  generation: {
    serviceId: generationId,
    service: 'burstreplace',
    status: 'completed',
    credits: 1,
    modelId: null,
    backgroundId: 'bg-1',
    error: null,
    createdAt: '2026-01-02T10:00:00+00:00',
    completedAt: '2026-01-02T10:00:05+00:00',
    tasks: [image('t-1', edited)],
  },
  ownerEmail: 'owner@example.com',
  temporalUrl: `http://temporal/namespaces/default/workflows/${generationId}`,
})

type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>

function renderPage(loggedIn: boolean) {
  const store = createStore()
  if (loggedIn) {
    const user = { userEmail: 'ops@example.com', userToken: 'tok', userName: 'Ops', userId: 'u1' }
    saveUserSession(user)
    store.set(authDispatchAtom, { type: 'LOGIN', payload: user })
  }
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <Provider store={store}>
        <MemoryRouter initialEntries={['/admin-showcase']}>
          <AdminShowcasePage />
        </MemoryRouter>
      </Provider>
    </QueryClientProvider>,
  )
  return { store }
}

describe('AdminShowcasePage', () => {
  let handler: Handler
  let fetchMock: ReturnType<typeof vi.fn>

  beforeEach(() => {
    localStorage.clear()
    fetchMock = vi.fn((input: string, init: RequestInit) => handler(new URL(input, 'http://app'), init))
    vi.stubGlobal('fetch', fetchMock)
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  it('asks a guest to log in, without calling the admin API', async () => {
    handler = () => json(500, {})
    const { store } = renderPage(false)
    expect(screen.getByTestId('admin-login-prompt')).toBeTruthy()
    await userEvent.click(screen.getByTestId('admin-login'))
    expect(store.get(authStateAtom).isLoginPopUp).toBe(true)
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('shows "Admins only" with the server message when the API answers 403', async () => {
    handler = () => json(403, { message: 'Only admins can do that.' })
    renderPage(true)
    const denied = await screen.findByTestId('admin-only')
    expect(denied.textContent).toContain('Admins only')
    expect(denied.textContent).toContain('Only admins can do that.')
    expect(screen.queryByTestId('lookup-input')).toBeNull()
  })

  it('lists shared pairs and curates one with the mutation, showing the new state', async () => {
    const puts: Array<{ path: string; body: unknown }> = []
    handler = (url, init) => {
      if (url.pathname === '/api/v1/admin/showcase') {
        return json(200, { data: { items: [pair('a', false), pair('b', true)], total: 2, pageNum: 1, pageSize: 24 } })
      }
      if (init.method === 'PUT') {
        puts.push({ path: url.pathname, body: JSON.parse(String(init.body)) })
        return json(200, { data: pair('a', true) })
      }
      return json(404, { message: 'no' })
    }
    renderPage(true)
    const card = await screen.findByTestId('candidate-a')
    const toggle = within(card).getByRole('switch')
    expect(toggle.getAttribute('aria-checked')).toBe('false')
    expect(within(screen.getByTestId('candidate-b')).getByRole('switch').getAttribute('aria-checked')).toBe('true')

    await userEvent.click(toggle)
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'))
    expect(puts).toEqual([{ path: '/api/v1/admin/showcase/a', body: { showcased: true } }])
    expect(toast.success).toHaveBeenCalledWith('Added to the showcase.')
  })

  it("toasts the server's refusal when curating fails", async () => {
    handler = (_url, init) => {
      if (init.method === 'PUT') {
        return json(404, { message: 'That image is not shared by its owner, so it cannot be shown.' })
      }
      return json(200, { data: { items: [pair('a', false)], total: 1, pageNum: 1, pageSize: 24 } })
    }
    renderPage(true)
    await userEvent.click(within(await screen.findByTestId('candidate-a')).getByRole('switch'))
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('That image is not shared by its owner, so it cannot be shown.'),
    )
  })

  it('shows the empty state when nothing is shared, and pages through many', async () => {
    let total = 0
    handler = (url) => {
      if (url.pathname === '/api/v1/admin/showcase') {
        const page = Number(url.searchParams.get('pageNum'))
        const items = total ? [pair(`p${page}`, false)] : []
        return json(200, { data: { items, total, pageNum: page, pageSize: 24 } })
      }
      return json(404, {})
    }
    renderPage(true)
    expect(await screen.findByTestId('candidates-empty')).toBeTruthy()
    cleanup()

    total = 30
    renderPage(true)
    await screen.findByTestId('candidate-p1')
    expect(screen.getByTestId('candidates-page').textContent).toContain('Page 1 of 2')
    await userEvent.click(screen.getByRole('button', { name: 'Next' }))
    await screen.findByTestId('candidate-p2')
    const asked = fetchMock.mock.calls.map(([input]) =>
      new URL(String(input), 'http://app').searchParams.get('pageNum'),
    )
    expect(asked).toContain('2')
  })

  it('looks up by email or service id, as the box decides, and refuses junk without a request', async () => {
    const lookups: Array<Record<string, string>> = []
    handler = (url) => {
      if (url.pathname === '/api/v1/admin/generations') {
        lookups.push(Object.fromEntries(url.searchParams))
        return json(200, { data: { items: [generation('svc-1')] } })
      }
      return json(200, { data: { items: [], total: 0, pageNum: 1, pageSize: 24 } })
    }
    renderPage(true)
    const input = await screen.findByTestId('lookup-input')
    await userEvent.type(input, 'not/an id{Enter}')
    expect(screen.getByTestId('lookup-error').textContent).toMatch(/service id/)
    expect(lookups).toEqual([])

    await userEvent.clear(input)
    await userEvent.type(input, 'Owner@Example.com{Enter}')
    const card = await screen.findByTestId('generation-svc-1')
    expect(lookups).toEqual([{ email: 'owner@example.com' }])
    const link = within(card).getByTestId('temporal-link')
    expect(link.getAttribute('href')).toBe('http://temporal/namespaces/default/workflows/svc-1')
    expect(link.textContent).toBe('Open in Temporal')

    await userEvent.clear(input)
    await userEvent.type(input, 'svc-1{Enter}')
    await waitFor(() => expect(lookups).toEqual([{ email: 'owner@example.com' }, { serviceId: 'svc-1' }]))
  })

  it("attaches an edited image, shows the server's refusal, then shows it Edited", async () => {
    let edited = false
    handler = (url, init) => {
      if (url.pathname === '/api/v1/admin/generations') {
        return json(200, { data: { items: [generation('svc-1', edited)] } })
      }
      if (url.pathname === '/api/v1/admin/edits/t-1') {
        const file = (init.body as FormData).get('file') as File
        if (file.name === 'bad.jpg') return json(422, { message: 'The edited image is not a JPEG, PNG or WebP image.' })
        edited = true
        return json(200, { data: image('t-1', true) })
      }
      return json(200, { data: { items: [], total: 0, pageNum: 1, pageSize: 24 } })
    }
    renderPage(true)
    await userEvent.type(await screen.findByTestId('lookup-input'), 'svc-1{Enter}')
    const row = await screen.findByTestId('admin-task-t-1')
    expect(within(row).queryByTestId('admin-task-edited')).toBeNull()

    const upload = within(row).getByTestId('attach-edit-input')
    await userEvent.upload(upload, new File(['nope'], 'bad.jpg', { type: 'image/jpeg' }))
    expect((await within(row).findByTestId('attach-edit-error')).textContent).toBe(
      'The edited image is not a JPEG, PNG or WebP image.',
    )

    await userEvent.upload(upload, new File(['jpeg'], 'good.jpg', { type: 'image/jpeg' }))
    expect((await within(row).findByTestId('admin-task-edited')).textContent).toContain('Edited')
    expect(within(row).queryByTestId('attach-edit-error')).toBeNull()
    expect(toast.success).toHaveBeenCalledWith('Edited image attached. The owner was told by email.')
  })

  it('shows a generation its owner deleted as deleted, with no images and no actions', async () => {
    const deleted = generation('svc-9')
    deleted.generation.tasks = [{ ...image('t-9'), inputThumbnailUrl: '', outputs: [] }]
    handler = (url) =>
      url.pathname === '/api/v1/admin/generations'
        ? json(200, { data: { items: [{ ...deleted, deletedAt: '2026-01-03T09:30:00+00:00' }] } })
        : json(200, { data: { items: [], total: 0, pageNum: 1, pageSize: 24 } })
    renderPage(true)
    await userEvent.type(await screen.findByTestId('lookup-input'), 'svc-9{Enter}')
    const card = await screen.findByTestId('generation-svc-9')
    expect(within(card).getByTestId('generation-deleted').textContent).toBe('Deleted')
    expect(within(card).queryByText('Completed')).toBeNull()
    expect(within(card).getByTestId('generation-deleted-note').textContent).toMatch(/Deleted by its owner \(owner@example.com\) on/)
    expect(within(card).queryAllByRole('img')).toHaveLength(0)
    expect(within(card).queryByTestId('admin-task-t-9')).toBeNull()
    expect(within(card).queryByTestId('attach-edit-input')).toBeNull()
  })
})
