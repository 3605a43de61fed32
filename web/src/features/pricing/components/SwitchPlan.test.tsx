import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PricingPlan } from '../pricing'
import { json } from '@/testing/http'
import { PLANS_USD, renderRoutes } from '../testing'
import { SubscriptionPage } from './SubscriptionPage'

const PRO: PricingPlan = {
  ...PLANS_USD[0]!,
  _id: 'v2-pro-usd',
  name: 'Pro',
  rateInfo: [{ value: 4900, rateCode: 'v2-pro-usd-month', interval: 'month', config: { credits: 500 } }],
  featureList: ['500 image credits every month'],
}
const PLANS = [PLANS_USD[0]!, PRO, PLANS_USD[1]!]

const subscription = (planId: string, rateCode: string) => ({
  id: 'sub-1',
  planId,
  planName: planId === PRO._id ? 'Pro' : 'Starter',
  rateCode,
  status: 'active',
  currency: 'USD',
  amount: 1900,
  credits: 100,
  currentPeriodStart: '2026-01-01T00:00:00+00:00',
  currentPeriodEnd: '2026-02-01T00:00:00+00:00',
  cancelAtPeriodEnd: false,
})

describe('changing plan from the pricing page', () => {
  let changed: Array<Record<string, unknown>>
  let previewed: Array<Record<string, unknown>>
  let changeAnswer: () => Response

  beforeEach(() => {
    localStorage.clear()
    sessionStorage.clear()
    changed = []
    previewed = []
    changeAnswer = () => json(200, { data: subscription(PRO._id, 'v2-pro-usd-month') })
    vi.stubGlobal(
      'fetch',
      vi.fn(async (raw: string, init: RequestInit) => {
        const url = new URL(raw, 'http://app.test')
        if (url.pathname === '/api/v1/pricing') return json(200, { data: { planVersion: 2, currency: 'USD', pricingInfo: PLANS } })
        if (url.pathname === '/api/v1/payment/subscription') return json(200, { data: { subscription: subscription('v2-starter-usd', 'v2-starter-usd-month') } })
        if (url.pathname === '/api/v1/payment/subscription/change/preview') {
          previewed.push(JSON.parse(String(init.body)))
          return json(200, {
            data: {
              kind: 'upgrade', planName: 'Pro', currency: 'USD', amountPerPeriod: 4900, creditsPerPeriod: 500,
              amountNow: 3000, creditsNow: 400, effectiveAt: '2026-01-10T12:00:00+00:00',
            },
          })
        }
        if (url.pathname === '/api/v1/payment/subscription/change') {
          changed.push(JSON.parse(String(init.body)))
          return changeAnswer()
        }
        if (url.pathname === '/imageedit/users/getCreditsForGuests' || url.pathname === '/api/v1/user/userInfo') return json(200, { data: {} })
        return json(404, { message: 'Not found.' })
      }),
    )
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  const page = () =>
    renderRoutes('/subscription', { '/subscription': <SubscriptionPage />, '/billing-info': <p>the billing page</p> }, { loggedIn: true })

  it('marks the current plan, offers a switch to the other monthly plan and buying the pack', async () => {
    page()
    await waitFor(() => expect(screen.getByTestId('current-plan')).toBeTruthy())
    const [starter, pro, pack] = screen.getAllByTestId('plan-card')
    expect(starter!.getAttribute('data-current')).toBe('true')
    expect((within(starter!).getByTestId('buy-now') as HTMLButtonElement).disabled).toBe(true)
    expect(within(starter!).getByTestId('buy-now').textContent).toBe('Current plan')
    expect(within(pro!).getByTestId('buy-now').textContent).toBe('Switch to Pro')
    expect(within(pack!).getByTestId('buy-now').textContent).toBe('Buy Now')
  })

  it('shows the charge and the credits before switching, then switches with the workflow update', async () => {
    page()
    await waitFor(() => expect(screen.getByTestId('current-plan')).toBeTruthy())
    await userEvent.click(within(screen.getAllByTestId('plan-card')[1]!).getByTestId('buy-now'))
    const dialog = await screen.findByTestId('switch-plan-dialog')
    expect((await within(dialog).findByTestId('switch-plan-charge')).textContent).toContain('$30.00')
    expect(within(dialog).getByTestId('switch-plan-credits').textContent).toBe('+400 at once')
    expect(previewed).toEqual([{ piid: 'v2-pro-usd', rcid: 'v2-pro-usd-month' }])
    expect(changed).toEqual([])
    await userEvent.click(within(dialog).getByTestId('switch-plan-confirm'))
    await waitFor(() => expect(screen.getByText('the billing page')).toBeTruthy())
    expect(changed).toEqual([{ piid: 'v2-pro-usd', rcid: 'v2-pro-usd-month' }])
  })

  it('keeps the dialog open with the reason when the card is declined', async () => {
    changeAnswer = () => json(402, { message: 'Your card was declined; your plan was not changed.' })
    page()
    await waitFor(() => expect(screen.getByTestId('current-plan')).toBeTruthy())
    await userEvent.click(within(screen.getAllByTestId('plan-card')[1]!).getByTestId('buy-now'))
    const dialog = await screen.findByTestId('switch-plan-dialog')
    await userEvent.click(await within(dialog).findByTestId('switch-plan-confirm'))
    expect((await within(dialog).findByTestId('switch-plan-error')).textContent).toContain('Your card was declined')
    expect(screen.queryByText('the billing page')).toBeNull()
  })
})
