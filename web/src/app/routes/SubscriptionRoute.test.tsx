import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { PLANS_USD, renderRoutes } from '@/features/pricing/testing'
import { json } from '@/testing/http'
import { SubscriptionRoute } from './SubscriptionRoute'

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (raw: string) => {
      const url = new URL(raw, 'http://app.test')
      if (url.pathname === '/imageedit/users/guestlogin') return json(200, { data: { token: 'guest', credits: 5 } })
      if (url.pathname === '/api/v1/pricing') return json(200, { data: { planVersion: 2, currency: 'USD', pricingInfo: PLANS_USD } })
      return json(404, { message: 'Not found.' })
    }),
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

// The form is its own chunk (issue 39): the page does not wait for it, and it still arrives.
it('shows the plans, then the enterprise form from its own chunk in the Enterprise block', async () => {
  renderRoutes('/subscription', { '/subscription': <SubscriptionRoute /> })
  expect(await screen.findAllByTestId('plan-card')).toHaveLength(2)
  const block = screen.getByRole('region', { name: 'Enterprise Solutions' })
  const form = await within(block).findByTestId('enterprise-form', {}, { timeout: 10_000 })
  expect(form.getAttribute('data-source')).toBe('subscription')
})
