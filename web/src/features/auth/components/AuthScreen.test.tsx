import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'jotai'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PENDING_PLAN_KEY, rememberPlan } from '@/lib/pendingPlan'
import { appStore } from '@/stores/appStore'
import { authStateAtom, initialAuthState } from '@/stores/auth'
import { toast } from '@/lib/toast'
import { rememberEmail } from '../session'
import { AuthScreen } from './AuthScreen'
import { json } from '@/testing/http'

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn(), clearErrors: vi.fn() }) }))

const PLAN_URL = '/plan-details?rate=1900&piid=v2-starter-usd&rcid=v2-starter-usd-month&plan=Starter&currency=USD&credits=100'

const LOGGED_IN = { token: 'token', user: { userId: 7, userEmail: 'ada@example.com', userName: 'Ada' } }

function Where() {
  const { pathname, search } = useLocation()
  return <output data-testid="where">{pathname + search}</output>
}

// completeLogin updates appStore, so the screen reads that store, as in the app.
function renderAt(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <Provider store={appStore}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/signup" element={<AuthScreen />} />
            <Route path="/login" element={<AuthScreen />} />
            <Route path="*" element={null} />
          </Routes>
          <Where />
        </MemoryRouter>
      </Provider>
    </QueryClientProvider>,
  )
}

/** Buy Now as a guest on /subscription: the plan remembered, the pricing-login flag raised. */
function boughtAsGuest() {
  rememberPlan(PLAN_URL)
  appStore.set(authStateAtom, { ...initialAuthState, isLoggedInByPricing: true })
}

async function signUp() {
  await userEvent.type(screen.getByTestId('step-email-input'), 'ada@example.com{Enter}')
  await userEvent.type(await screen.findByTestId('step-code-input'), '123456{Enter}')
  await userEvent.type(await screen.findByTestId('step-name-input'), 'Ada')
  await userEvent.type(screen.getByTestId('step-password-input'), 'secret-42{Enter}')
}

describe('AuthScreen: where /signup and /login go after logging in', () => {
  let fetchMock: ReturnType<typeof vi.fn>

  beforeEach(() => {
    localStorage.clear()
    sessionStorage.clear()
    rememberEmail(null)
    appStore.set(authStateAtom, initialAuthState)
    fetchMock = vi.fn(async (raw: string) => {
      const { pathname } = new URL(raw, 'http://app.test')
      if (pathname === '/api/v1/auth/generateSignupOTP' || pathname === '/api/v1/auth/verifySignupOTP')
        return json(200, { data: { message: 'ok' } })
      if (pathname === '/api/v1/auth/signup' || pathname === '/api/v1/auth/login') return json(200, { data: LOGGED_IN })
      return json(404, { message: 'Not found.' })
    })
    vi.stubGlobal('fetch', fetchMock)
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
    appStore.set(authStateAtom, initialAuthState)
  })

  it('a guest Buy Now sent to /signup continues to /plan-details with the plan, as the modal does', async () => {
    boughtAsGuest()
    renderAt('/signup')
    await signUp()

    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(PLAN_URL))
    expect(appStore.get(authStateAtom)).toMatchObject({ isAuthenticated: true, isLoggedInByPricing: false })
    expect(sessionStorage.getItem(PENDING_PLAN_KEY)).toBeNull()
    const calls = fetchMock.mock.calls.map(([url]) => String(url))
    expect(calls).toContain('/api/v1/auth/signup')
  })

  it('logging in on /login (reached from /signup) continues to the plan too', async () => {
    boughtAsGuest()
    renderAt('/login')
    await userEvent.type(screen.getByTestId('login-email'), 'ada@example.com')
    await userEvent.type(screen.getByTestId('login-password'), 'secret-42{Enter}')

    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe(PLAN_URL))
    expect(appStore.get(authStateAtom).isLoggedInByPricing).toBe(false)
  })

  it('a sign-up Buy Now did not ask for goes home, leaving a stale plan unfollowed', async () => {
    rememberPlan(PLAN_URL)
    renderAt('/signup')
    await signUp()

    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/'))
    expect(appStore.get(authStateAtom).isAuthenticated).toBe(true)
  })

  it('someone already logged in is sent home', () => {
    appStore.set(authStateAtom, {
      ...initialAuthState,
      isAuthenticated: true,
      user: { userEmail: 'ada@example.com', userName: 'Ada', userToken: 'token', userId: '7' },
    })
    renderAt('/signup')
    expect(screen.getByTestId('where').textContent).toBe('/')
  })
  it('a wrong code is toasted; once the right code is accepted that toast is taken away', async () => {
    let codes = 0
    fetchMock.mockImplementation(async (raw: string) => {
      const { pathname } = new URL(raw, 'http://app.test')
      if (pathname === '/api/v1/auth/verifySignupOTP') {
        codes += 1
        return codes === 1 ? json(400, { message: 'The code is wrong.' }) : json(200, { data: { message: 'ok' } })
      }
      if (pathname === '/api/v1/auth/generateSignupOTP') return json(200, { data: { message: 'ok' } })
      return json(404, { message: 'Not found.' })
    })
    renderAt('/signup')
    await userEvent.type(screen.getByTestId('step-email-input'), 'ada@example.com{Enter}')
    const code = await screen.findByTestId('step-code-input')
    vi.mocked(toast.clearErrors).mockClear()
    await userEvent.type(code, '111111{Enter}')
    await waitFor(() => expect(toast.error).toHaveBeenCalled())
    expect(toast.clearErrors).not.toHaveBeenCalled()
    await userEvent.clear(code)
    await userEvent.type(code, '123456{Enter}')
    await screen.findByTestId('step-name-input')
    expect(toast.clearErrors).toHaveBeenCalledTimes(1)
  })

  it('offers the free credits once on the sign-up screen', () => {
    renderAt('/signup')
    expect(screen.getAllByText(/free credits/)).toHaveLength(1)
    expect(screen.getByTestId('free-credits-offer').textContent).toBe('Sign up and get 10 free credits.')
  })
})
