import { cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { invalidateCredits } from '@/api/credits'
import type { Order } from '../api/getOrder'
import { json } from '@/testing/http'
import { guestLogin, renderRoutes } from '../testing'
import { FailurePage } from './FailurePage'
import { SuccessPage } from './SuccessPage'

vi.mock('@/api/credits', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/api/credits')>()),
  invalidateCredits: vi.fn(async () => undefined),
}))

function order(status: Order['status'], extra: Partial<Order> = {}): Order {
  return {
    orderId: 'ord_1',
    status,
    credits: 50,
    amount: 1200,
    currency: 'USD',
    plan: { _id: 'v2-pack-usd', name: 'Credit Pack', kind: 'pack', rateCode: 'v2-pack-usd-once', interval: 'once' },
    reason: null,
    redirectby: null,
    createdAt: '2025-01-01T00:00:00+00:00',
    paidAt: null,
    ...extra,
  }
}

describe('SuccessPage follows the order', () => {
  let answers: Order[]
  let orderCalls: number
  let balance: number

  beforeEach(() => {
    vi.clearAllMocks()
    localStorage.clear()
    orderCalls = 0
    balance = 60
    fetchMockInstall()
  })

  function fetchMockInstall() {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (raw: string) => {
        const url = new URL(raw, 'http://app.test')
        const guest = guestLogin(url)
        if (guest) return guest
        if (url.pathname === '/api/v1/payment/order/ord_1') {
          const answer = answers[Math.min(orderCalls, answers.length - 1)]!
          orderCalls += 1
          return json(200, { data: answer })
        }
        if (url.pathname === '/api/v1/user/creditsAvailable') {
          return json(200, { data: { creditsAvailable: { free: 10, paid: balance - 10, total: balance } } })
        }
        return json(404, { message: 'No such order.' })
      }),
    )
  }

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  const routes = { '/success': <SuccessPage />, '/failure': <FailurePage /> }

  it('pending → spinner, polling until paid → credits added, balance, Create New Image', async () => {
    answers = [order('pending'), order('pending'), order('paid', { paidAt: '2025-01-01T00:00:05+00:00' })]
    renderRoutes('/success?orderId=ord_1', routes, { loggedIn: true })
    expect(await screen.findByTestId('success-pending')).toBeTruthy()
    expect(screen.getByRole('status', { name: 'Confirming your payment' })).toBeTruthy()

    const credits = await screen.findByTestId('success-credits', undefined, { timeout: 4000 })
    expect(orderCalls).toBe(3)
    expect(credits.textContent).toBe('50 credits were added to your account.')
    expect(await screen.findByTestId('success-balance')).toBeTruthy()
    expect(screen.getByTestId('success-balance').textContent).toBe('60 credits')
    expect(invalidateCredits).toHaveBeenCalledTimes(1)
    expect(screen.getByTestId('success-continue').textContent).toBe('Create New Image')
    expect(screen.getByTestId('success-continue').getAttribute('href')).toBe('/upload-images')

    // Paid is final: no more questions.
    await new Promise((r) => setTimeout(r, 1300))
    expect(orderCalls).toBe(3)
  }, 10_000)

  it('leads on to the order’s redirectby', async () => {
    answers = [order('paid', { redirectby: '/generate' })]
    renderRoutes('/success?orderId=ord_1', routes, { loggedIn: true })
    const next = await screen.findByTestId('success-continue')
    expect(next.textContent).toBe('Continue')
    expect(next.getAttribute('href')).toBe('/generate')
  })

  it('a declined order goes to /failure with its reason and a Try again to the same plan', async () => {
    answers = [order('pending'), order('failed', { reason: 'Your card was declined.' })]
    renderRoutes('/success?orderId=ord_1', routes, { loggedIn: true })
    const reason = await screen.findByTestId('failure-reason', undefined, { timeout: 4000 })
    expect(reason.textContent).toBe('Your card was declined.')
    expect(screen.getByTestId('where').textContent).toContain('/failure?orderId=ord_1')
    await waitFor(() =>
      expect(screen.getByTestId('failure-retry').getAttribute('href')).toBe(
        '/plan-details?rate=1200&piid=v2-pack-usd&rcid=v2-pack-usd-once&plan=Credit+Pack&currency=USD&credits=50',
      ),
    )
    expect(invalidateCredits).not.toHaveBeenCalled()
  }, 10_000)

  it("an order that cannot be read shows the server's message", async () => {
    answers = []
    renderRoutes('/success?orderId=ord_404', routes, { loggedIn: true })
    expect((await screen.findByTestId('success-error')).textContent).toBe('No such order.')
  })

  it('without an order id: a way to the plans', () => {
    answers = []
    renderRoutes('/success', routes, { loggedIn: true })
    expect(screen.getByText('No order to show')).toBeTruthy()
  })
})

describe('FailurePage', () => {
  afterEach(() => cleanup())

  it('says why from the query, and offers the plans without an order', () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(404, { message: 'Not found.' })))
    renderRoutes('/failure?reason=The%20checkout%20was%20canceled.', { '/failure': <FailurePage /> })
    expect(screen.getByTestId('failure-reason').textContent).toBe('The checkout was canceled.')
    expect(screen.getByTestId('failure-retry').getAttribute('href')).toBe('/subscription')
    vi.unstubAllGlobals()
  })
})
