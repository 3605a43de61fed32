import { cleanup, render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SubscriptionView } from '@/api/subscription'

const answer = vi.hoisted(() => ({ current: {} as Record<string, unknown> }))
vi.mock('@/api/subscription', () => ({ useSubscription: () => answer.current }))

const { PlanCard } = await import('./DashboardPage')

const subscription = (over: Partial<SubscriptionView> = {}): SubscriptionView =>
  ({
    id: 's1',
    planId: 'pro',
    planName: 'Pro',
    rateCode: 'pro-inr-month',
    status: 'active',
    currency: 'INR',
    amount: 149_900,
    credits: 500,
    currentPeriodStart: '2026-11-01T00:00:00Z',
    currentPeriodEnd: '2026-12-01T00:00:00Z',
    cancelAtPeriodEnd: false,
    pendingPlanId: null,
    pendingPlanName: null,
    ...over,
  }) as SubscriptionView

function show(state: Record<string, unknown>) {
  answer.current = state
  render(
    <MemoryRouter>
      <PlanCard userEmail="u@example.com" />
    </MemoryRouter>,
  )
}

describe('the dashboard plan card', () => {
  afterEach(cleanup)

  it('shows the free plan and pricing without a subscription', () => {
    show({ data: null, isPending: false, isError: false })
    expect(screen.getByTestId('dashboard-plan-name').textContent).toBe('Free plan')
    expect(screen.getByTestId('dashboard-pricing').getAttribute('href')).toBe('/subscription')
  })

  it('shows a live plan with its price, credits and renewal date', () => {
    show({ data: subscription(), isPending: false, isError: false })
    expect(screen.getByTestId('dashboard-plan-name').textContent).toBe('Pro')
    expect(screen.getByText(/500 credits a month · ₹1,499\.00/)).toBeTruthy()
    expect(screen.getByTestId('dashboard-plan-status').textContent).toBe('Renews on 1 Dec 2026')
    expect(screen.getByTestId('dashboard-billing').getAttribute('href')).toBe('/billing-info')
  })

  it('says when a plan ends or changes at the period end', () => {
    show({ data: subscription({ cancelAtPeriodEnd: true }), isPending: false, isError: false })
    expect(screen.getByTestId('dashboard-plan-status').textContent).toBe('Ends on 1 Dec 2026')
  })

  it('names a pending downgrade', () => {
    show({ data: subscription({ pendingPlanName: 'Starter' }), isPending: false, isError: false })
    expect(screen.getByTestId('dashboard-plan-status').textContent).toBe('Renews on 1 Dec 2026, then Starter')
  })

  it('warns when a payment is due', () => {
    show({ data: subscription({ status: 'past_due' }), isPending: false, isError: false })
    expect(screen.getByTestId('dashboard-plan-status').textContent).toMatch(/Payment due/)
  })

  it('treats a canceled plan as the free plan', () => {
    show({ data: subscription({ status: 'canceled' }), isPending: false, isError: false })
    expect(screen.getByTestId('dashboard-plan-name').textContent).toBe('Free plan')
  })
})
