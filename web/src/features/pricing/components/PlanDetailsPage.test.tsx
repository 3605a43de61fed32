import { cleanup, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { authStateAtom } from '@/stores/auth'
import { browserLocation } from '../browserLocation'
import { json } from '@/testing/http'
import { guestLogin, PLANS_USD, renderRoutes } from '../testing'
import { PlanDetailsPage } from './PlanDetailsPage'

const PACK = '/plan-details?rate=1200&piid=v2-pack-usd&rcid=v2-pack-usd-once&plan=Credit%20Pack&currency=USD&credits=50'

describe('PlanDetailsPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>
  let checkoutAnswer: () => Response
  let assign: ReturnType<typeof vi.spyOn>

  beforeEach(() => {
    localStorage.clear()
    checkoutAnswer = () => json(200, { data: { orderId: 'ord_1', checkoutUrl: '/pay/test/cs_1' } })
    fetchMock = vi.fn(async (raw: string) => {
      const url = new URL(raw, 'http://app.test')
      const guest = guestLogin(url)
      if (guest) return guest
      if (url.pathname === '/api/v1/pricing') {
        return json(200, { data: { planVersion: 2, currency: 'USD', pricingInfo: PLANS_USD } })
      }
      if (url.pathname === '/api/v1/payment/checkout') return checkoutAnswer()
      return json(404, { message: 'Not found.' })
    })
    vi.stubGlobal('fetch', fetchMock)
    assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => undefined)
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  const page = (url: string, loggedIn = true) => renderRoutes(url, { '/plan-details': <PlanDetailsPage /> }, { loggedIn })

  it('shows the order summary from the pricing list', async () => {
    page(PACK)
    expect((await screen.findByTestId('summary-plan')).textContent).toContain('Credit Pack')
    expect(screen.getByTestId('summary-price').textContent).toContain('$12.00')
    expect(screen.getByTestId('summary-credits').textContent).toBe('50')
    expect(screen.getByTestId('summary-per-image').textContent).toBe('$0.24')
    expect(screen.getByTestId('summary-total').textContent).toBe('$12.00')
    expect(screen.queryByTestId('summary-changed')).toBeNull()
    const [url] = fetchMock.mock.calls.find(([u]) => String(u).startsWith('/api/v1/pricing'))!
    expect(url).toBe('/api/v1/pricing?planVersion=2&currency=USD')
  })

  it('a stale link shows the list price and says so', async () => {
    page(PACK.replace('rate=1200', 'rate=900'))
    expect((await screen.findByTestId('summary-total')).textContent).toBe('$12.00')
    expect(screen.getByTestId('summary-changed')).toBeTruthy()
  })

  it('Pay starts checkout with the plan and goes to the checkout page', async () => {
    page(`${PACK}&redirectby=%2Fgenerate`)
    await userEvent.click(await screen.findByTestId('pay-button'))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/pay/test/cs_1'))
    const call = fetchMock.mock.calls.find(([u]) => u === '/api/v1/payment/checkout')!
    expect(JSON.parse(call[1].body as string)).toEqual({
      piid: 'v2-pack-usd',
      rcid: 'v2-pack-usd-once',
      currency: 'USD',
      redirectby: '/generate',
    })
  })

  it("a refused checkout shows the server's message", async () => {
    checkoutAnswer = () => json(422, { message: 'currency: The Credit Pack plan is priced in USD, not INR.' })
    page(PACK)
    await userEvent.click(await screen.findByTestId('pay-button'))
    expect((await screen.findByTestId('checkout-error')).textContent).toContain('priced in USD, not INR')
    expect(assign).not.toHaveBeenCalled()
  })

  it('an unknown plan: a clear message and a link back', async () => {
    page(PACK.replace('v2-pack-usd-once', 'v2-gold-usd-once'))
    expect((await screen.findByTestId('plan-details-unavailable')).textContent).toContain('This plan is not available.')
    expect(screen.getByTestId('back-to-pricing').getAttribute('href')).toBe('/subscription')
  })

  it('a broken query names what is wrong, without asking the server', () => {
    page('/plan-details?piid=v2-pack-usd&currency=EUR')
    expect(screen.getByTestId('plan-details-unavailable').textContent).toContain('rate, rcid, plan, currency, credits')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('a guest is asked to log in instead of paying', async () => {
    const { store } = page(PACK, false)
    await userEvent.click(await screen.findByTestId('plan-details-login'))
    expect(store.get(authStateAtom).isLoginPopUp).toBe(true)
    expect(screen.queryByTestId('pay-button')).toBeNull()
  })
})
