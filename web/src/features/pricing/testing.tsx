// Test helpers of the pricing pages (not shipped: only *.test.tsx import this).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { createStore, Provider } from 'jotai'
import type { ReactElement } from 'react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { saveUserSession } from '@/lib/identity'
import { authStateAtom, initialAuthState } from '@/stores/auth'
import type { PricingPlan } from './pricing'
import { Where } from './TestWhere'
import { json } from '@/testing/http'

export const PLANS_USD: PricingPlan[] = [
  {
    _id: 'v2-starter-usd',
    name: 'Starter',
    currency: 'USD',
    kind: 'subscription',
    rateInfo: [{ value: 1900, rateCode: 'v2-starter-usd-month', interval: 'month', config: { credits: 100 } }],
    featureList: ['100 image credits every month', 'Email support'],
  },
  {
    _id: 'v2-pack-usd',
    name: 'Credit Pack',
    currency: 'USD',
    kind: 'pack',
    rateInfo: [{ value: 1200, rateCode: 'v2-pack-usd-once', interval: 'once', config: { credits: 50 } }],
    featureList: ['50 image credits, paid once'],
  },
]

export const PLANS_INR: PricingPlan[] = [
  {
    _id: 'v2-starter-inr',
    name: 'Starter',
    currency: 'INR',
    kind: 'subscription',
    rateInfo: [{ value: 149900, rateCode: 'v2-starter-inr-month', interval: 'month', config: { credits: 100 } }],
    featureList: ['100 image credits every month'],
  },
]

/** Answers the guest login the API client makes for guests (any test's fetch mock can use it). */
export function guestLogin(url: URL): Response | null {
  return url.pathname === '/imageedit/users/guestlogin' ? json(200, { data: { token: 'guest', credits: 5 } }) : null
}

export const USER = { userEmail: 'ada@example.com', userName: 'Ada', userToken: 'token', userId: 'u1' }

export function renderRoutes(
  url: string,
  routes: Record<string, ReactElement>,
  { loggedIn = false }: { loggedIn?: boolean } = {},
) {
  const store = createStore()
  if (loggedIn) {
    saveUserSession(USER)
    store.set(authStateAtom, { ...initialAuthState, isAuthenticated: true, user: USER })
  }
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  const view = render(
    <QueryClientProvider client={client}>
      <Provider store={store}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            {Object.entries(routes).map(([path, element]) => (
              <Route key={path} path={path} element={element} />
            ))}
            <Route path="*" element={null} />
          </Routes>
          <Where />
        </MemoryRouter>
      </Provider>
    </QueryClientProvider>,
  )
  return { ...view, store, client }
}
