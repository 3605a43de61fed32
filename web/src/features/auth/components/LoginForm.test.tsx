import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toast } from '@/lib/toast'
import { LoginForm } from './LoginForm'

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), invalid: vi.fn(), success: vi.fn(), clearErrors: vi.fn() }) }))

function renderForm() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
  const onLoggedIn = vi.fn()
  render(
    <QueryClientProvider client={client}>
      <LoginForm onLoggedIn={onLoggedIn} onCreateAccount={vi.fn()} onForgotPassword={vi.fn()} />
    </QueryClientProvider>,
  )
  return { onLoggedIn }
}

describe('LoginForm', () => {
  let fetchMock: ReturnType<typeof vi.fn>

  beforeEach(() => {
    fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  it('toasts "Please enter all the value" when a field is blank, without calling the server', async () => {
    renderForm()
    await userEvent.click(screen.getByTestId('login-submit'))
    // As a complaint about the form: the next error replaces it (lib/toast).
    expect(toast.invalid).toHaveBeenCalledWith('Please enter all the value')

    await userEvent.type(screen.getByTestId('login-password'), 'secret-42')
    await userEvent.click(screen.getByTestId('login-submit'))
    expect(toast.invalid).toHaveBeenCalledTimes(2)
    expect(screen.queryByTestId('login-email-error')).toBeNull()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('shows "Please enter correct email" inline, and clears it when the email is edited', async () => {
    renderForm()
    await userEvent.type(screen.getByTestId('login-email'), 'not an@email')
    await userEvent.type(screen.getByTestId('login-password'), 'secret-42{Enter}')
    expect(screen.getByTestId('login-email-error').textContent).toBe('Please enter correct email')
    expect(screen.getByTestId('login-email').getAttribute('aria-invalid')).toBe('true')
    expect(fetchMock).not.toHaveBeenCalled()

    // Still not a valid email, but edited: the message goes away.
    await userEvent.type(screen.getByTestId('login-email'), '{Backspace}')
    expect(screen.queryByTestId('login-email-error')).toBeNull()
  })

  it('sends the email lower-cased with Remember me, and toasts the server message on a 400', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ message: 'Wrong email or password.' }), {
        status: 400,
        headers: { 'Content-Type': 'application/json' },
      }),
    )
    const { onLoggedIn } = renderForm()
    await userEvent.type(screen.getByTestId('login-email'), ' Ada@Example.com ')
    await userEvent.type(screen.getByTestId('login-password'), 'secret-42')
    await userEvent.click(screen.getByTestId('login-submit'))

    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Wrong email or password.'))
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/v1/auth/login')
    expect(JSON.parse(init.body as string)).toEqual({ email: 'ada@example.com', password: 'secret-42', rememberMe: true })
    expect(onLoggedIn).not.toHaveBeenCalled()
  })
})
