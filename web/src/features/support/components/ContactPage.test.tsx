import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore, Provider } from 'jotai'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toast } from '@/lib/toast'
import { authStateAtom, initialAuthState } from '@/stores/auth'
import { ContactPage } from './ContactPage'
import { json } from '@/testing/http'

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn() }) }))

function renderAt(url: string, user?: { userEmail: string; userName: string }) {
  const store = createStore()
  if (user) {
    store.set(authStateAtom, {
      ...initialAuthState,
      isAuthenticated: true,
      user: { ...user, userToken: 'token', userId: 'u1' },
    })
  }
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <Provider store={store}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/contact" element={<ContactPage />} />
          </Routes>
        </MemoryRouter>
      </Provider>
    </QueryClientProvider>,
  )
}

const field = (name: string) => screen.getByTestId(`contact-${name}`) as HTMLInputElement

describe('ContactPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>
  let contactAnswer: () => Response

  beforeEach(() => {
    vi.clearAllMocks()
    localStorage.clear()
    contactAnswer = () => json(200, { data: { id: 7 } })
    fetchMock = vi.fn(async (url: string) => {
      if (url === '/imageedit/users/guestlogin') return json(200, { data: { token: 'guest-token', credits: 5 } })
      if (url === '/api/v1/contact') return contactAnswer()
      return json(404, { message: 'Not found.' })
    })
    vi.stubGlobal('fetch', fetchMock)
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  it('preselects "Book an appointment" from ?topic=appointment', () => {
    renderAt('/contact?topic=appointment')
    const topic = screen.getByTestId('contact-topic') as HTMLSelectElement
    expect(topic.value).toBe('appointment')
    expect(topic.selectedOptions[0]?.textContent).toBe('Book an appointment')
  })

  it('starts on the general topic without (or with an unknown) ?topic', () => {
    renderAt('/contact?topic=nonsense')
    expect(field('topic').value).toBe('general')
  })

  it('says "This field is required" under each blank field and sends nothing', async () => {
    renderAt('/contact')
    await userEvent.click(screen.getByTestId('contact-submit'))
    for (const name of ['name', 'email', 'message']) {
      expect(screen.getByTestId(`contact-${name}-error`).textContent).toBe('This field is required')
      expect(field(name).getAttribute('aria-invalid')).toBe('true')
    }
    expect(fetchMock).not.toHaveBeenCalled()

    // Editing a field clears its message.
    await userEvent.type(field('name'), 'A')
    expect(screen.queryByTestId('contact-name-error')).toBeNull()
  })

  it('prefills name and email for a signed-in user', () => {
    renderAt('/contact', { userEmail: 'ada@example.com', userName: 'Ada' })
    expect(field('name').value).toBe('Ada')
    expect(field('email').value).toBe('ada@example.com')
  })

  it('sends the message and shows the success state', async () => {
    renderAt('/contact?topic=appointment')
    await userEvent.type(field('name'), ' Ada ')
    await userEvent.type(field('email'), 'ada@example.com')
    await userEvent.type(field('message'), 'A demo for our team, please.')
    await userEvent.click(screen.getByTestId('contact-submit'))

    await screen.findByTestId('contact-success')
    expect(screen.getByTestId('contact-success').textContent).toContain('ada@example.com')
    expect(toast.success).toHaveBeenCalledWith('Thank you! Your message has been sent.')
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/v1/contact') as [string, RequestInit]
    expect(JSON.parse(call[1].body as string)).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      topic: 'appointment',
      message: 'A demo for our team, please.',
    })

    // Another message keeps name, email and topic, with an empty message.
    await userEvent.click(screen.getByRole('button', { name: 'Send another message' }))
    expect(field('name').value).toBe('Ada')
    expect(field('topic').value).toBe('appointment')
    expect(field('message').value).toBe('')
  })

  it("shows the server's message on a 429 and keeps what was typed", async () => {
    contactAnswer = () => json(429, { message: 'Too many attempts. Please wait 42 minutes and try again.' })
    renderAt('/contact')
    await userEvent.type(field('name'), 'Ada')
    await userEvent.type(field('email'), 'ada@example.com')
    await userEvent.selectOptions(field('topic'), 'billing')
    await userEvent.type(field('message'), 'Hello')
    await userEvent.click(screen.getByTestId('contact-submit'))

    const alert = await screen.findByTestId('contact-server-error')
    expect(alert.textContent).toContain('Too many attempts. Please wait 42 minutes and try again.')
    expect(screen.queryByTestId('contact-success')).toBeNull()
    expect(field('message').value).toBe('Hello')
    expect(toast.success).not.toHaveBeenCalled()
  })
})
