import { act, cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PENDING_PLAN_KEY } from '@/lib/pendingPlan'
import { authDispatchAtom, authStateAtom } from '@/stores/auth'
import { json } from '@/testing/http'
import { PLANS_INR, PLANS_USD, renderRoutes, USER } from '../testing'
import { SubscriptionPage } from './SubscriptionPage'

describe('SubscriptionPage (spec §2 Pricing page, §4 Buy Now)', () => {
  let fetchMock: ReturnType<typeof vi.fn>
  let pricingAnswer: (url: URL) => Response

  beforeEach(() => {
    localStorage.clear()
    sessionStorage.clear()
    pricingAnswer = (url) =>
      url.searchParams.get('currency') === 'INR'
        ? json(200, { data: { planVersion: 2, currency: 'INR', pricingInfo: PLANS_INR } })
        : json(200, { data: { planVersion: 2, currency: 'USD', pricingInfo: PLANS_USD } })
    fetchMock = vi.fn(async (raw: string) => {
      const url = new URL(raw, 'http://app.test')
      if (url.pathname === '/imageedit/users/guestlogin') return json(200, { data: { token: 'guest', credits: 5 } })
      if (url.pathname === '/api/v1/pricing') return pricingAnswer(url)
      return json(404, { message: 'Not found.' })
    })
    vi.stubGlobal('fetch', fetchMock)
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  const page = (opts?: { loggedIn?: boolean }, url = '/subscription') =>
    renderRoutes(url, { '/subscription': <SubscriptionPage enterpriseForm={<p>the form</p>} /> }, opts)

  it('shows the plan cards, the "from" price of the first plan and the enterprise form', async () => {
    page()
    const cards = await screen.findAllByTestId('plan-card')
    expect(cards).toHaveLength(2)
    const starter = within(cards[0]!)
    expect(starter.getByRole('heading', { name: 'Starter' })).toBeTruthy()
    expect(starter.getByTestId('plan-price').textContent).toBe('$19.00')
    expect(starter.getByTestId('plan-credits').textContent).toBe('100 image credits every month')
    expect(starter.getByTestId('plan-per-image').textContent).toBe('$0.19 per image')
    expect(starter.getByText('Email support')).toBeTruthy()
    expect(within(cards[1]!).getByTestId('plan-per-image').textContent).toBe('$0.24 per image')
    expect(screen.getByTestId('pricing-from').textContent).toBe('$0.19')
    expect(screen.getByText('Enterprise Solutions')).toBeTruthy()
    expect(screen.getByText('the form')).toBeTruthy()
  })

  it('places the enterprise block once the plans have come, so the cards never push it down (issue 39)', async () => {
    let answer: (response: Response) => void = () => {}
    const answered = fetchMock.getMockImplementation() as (raw: string) => Promise<Response>
    fetchMock.mockImplementation(async (raw: string) =>
      raw.startsWith('/api/v1/pricing') ? new Promise<Response>((resolve) => (answer = resolve)) : answered(raw),
    )
    page()
    await screen.findByText('Loading plans…')
    expect(screen.queryByText('Enterprise Solutions')).toBeNull()
    expect(screen.queryByText('the form')).toBeNull()
    answer(json(200, { data: { planVersion: 2, currency: 'USD', pricingInfo: PLANS_USD } }))
    await screen.findAllByTestId('plan-card')
    const enterprise = screen.getByRole('region', { name: 'Enterprise Solutions' })
    expect(within(enterprise).getByText('the form')).toBeTruthy()
    // Below the plans in the document, as the reader meets them.
    const grid = screen.getByTestId('plan-grid')
    expect(grid.compareDocumentPosition(enterprise) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  it('still offers the enterprise block when the plans cannot be loaded', async () => {
    pricingAnswer = () => json(500, { message: 'Server error.' })
    page()
    await screen.findByTestId('pricing-empty')
    expect(screen.getByRole('region', { name: 'Enterprise Solutions' })).toBeTruthy()
  })

  it('highlights the middle monthly plan as recommended, and only that one', async () => {
    const monthly = (id: string, name: string, value: number) => ({
      ...PLANS_USD[0]!,
      _id: id,
      name,
      rateInfo: [{ value, rateCode: `${id}-month`, interval: 'month' as const, config: { credits: 100 } }],
    })
    const plans = [monthly('starter', 'Starter', 1900), monthly('pro', 'Pro', 6900), monthly('business', 'Business', 22900), PLANS_USD[1]!]
    pricingAnswer = () => json(200, { data: { planVersion: 2, currency: 'USD', pricingInfo: plans } })
    page()
    const cards = await screen.findAllByTestId('plan-card')
    expect(cards.map((c) => c.getAttribute('data-recommended'))).toEqual([null, 'true', null, null])
    expect(within(cards[1]!).getByTestId('plan-recommended').textContent).toBe('Recommended')
    expect(screen.getAllByTestId('plan-recommended')).toHaveLength(1)
  })

  it('sends the planVersion and the browser time zone; the switch asks for a currency', async () => {
    page()
    await screen.findAllByTestId('plan-card')
    const [url, init] = fetchMock.mock.calls.find(([u]) => String(u).startsWith('/api/v1/pricing'))!
    expect(url).toBe('/api/v1/pricing?planVersion=2')
    // The zone goes only from a clock at India's offset (browserTimeZone); this one is not.
    expect(new Date().getTimezoneOffset()).not.toBe(-330)
    expect((init.headers as Record<string, string> | undefined)?.['x-timezone']).toBeUndefined()
    expect(screen.getByTestId('currency-USD').getAttribute('aria-pressed')).toBe('true')

    await userEvent.click(screen.getByTestId('currency-INR'))
    await waitFor(() => expect(screen.getByTestId('pricing-from').textContent).toBe('₹14.99'))
    expect(screen.getByTestId('plan-price').textContent).toBe('₹1,499.00')
    expect(screen.getByTestId('currency-INR').getAttribute('aria-pressed')).toBe('true')
  })

  it('a pricing load failure is only logged: a neutral empty state', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    pricingAnswer = () => json(500, { message: 'Database down' })
    page()
    expect(await screen.findByTestId('pricing-empty')).toBeTruthy()
    expect(screen.queryByText(/Database down/)).toBeNull()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(warn).toHaveBeenCalledWith('Could not load pricing:', expect.anything())
  })

  it('Buy Now as a guest opens the login modal from pricing, then continues to /plan-details', async () => {
    const { store } = page(undefined, '/subscription?redirectby=/generate')
    const cards = await screen.findAllByTestId('plan-card')
    await userEvent.click(within(cards[1]!).getByTestId('buy-now'))

    expect(store.get(authStateAtom)).toMatchObject({ isLoginPopUp: true, isLoggedInByPricing: true })
    expect(screen.getByTestId('where').textContent).toBe('/subscription?redirectby=/generate')
    expect(sessionStorage.getItem(PENDING_PLAN_KEY)).toContain('piid=v2-pack-usd')

    act(() => store.set(authDispatchAtom, { type: 'LOGIN', payload: USER }))
    await waitFor(() => expect(screen.getByTestId('where').textContent).toMatch(/^\/plan-details\?/))
    const query = new URLSearchParams(screen.getByTestId('where').textContent!.split('?')[1])
    expect(Object.fromEntries(query)).toEqual({
      rate: '1200',
      piid: 'v2-pack-usd',
      rcid: 'v2-pack-usd-once',
      plan: 'Credit Pack',
      currency: 'USD',
      credits: '50',
      redirectby: '/generate',
    })
    expect(store.get(authStateAtom).isLoggedInByPricing).toBe(false)
    expect(sessionStorage.getItem(PENDING_PLAN_KEY)).toBeNull()
  })

  it('a login that Buy Now did not ask for does not continue anywhere', async () => {
    const { store } = page()
    await screen.findAllByTestId('plan-card')
    act(() => store.set(authDispatchAtom, { type: 'LOGINPOPUP', payload: { isLoginPopUp: true } }))
    act(() => store.set(authDispatchAtom, { type: 'LOGIN', payload: USER }))
    expect(screen.getByTestId('where').textContent).toBe('/subscription')
  })

  it('Buy Now when logged in goes straight to /plan-details', async () => {
    const { store } = page({ loggedIn: true })
    const cards = await screen.findAllByTestId('plan-card')
    await userEvent.click(within(cards[0]!).getByTestId('buy-now'))
    expect(screen.getByTestId('where').textContent).toBe(
      '/plan-details?rate=1900&piid=v2-starter-usd&rcid=v2-starter-usd-month&plan=Starter&currency=USD&credits=100',
    )
    expect(store.get(authStateAtom).isLoginPopUp).toBe(false)
  })
})
