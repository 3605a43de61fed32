import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api'
import type { SubscriptionView } from '@/api/subscription'
import { SubscriptionPanel } from './SubscriptionPanel'

const queries = vi.hoisted(() => ({
  subscription: vi.fn(),
  cancel: vi.fn(),
  resume: vi.fn(),
}))

vi.mock('@/api/subscription', () => ({ useSubscription: queries.subscription }))
vi.mock('../api/cancelSubscription', () => ({ useCancelSubscription: queries.cancel }))
vi.mock('../api/resumeSubscription', () => ({ useResumeSubscription: queries.resume }))
vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn() }) }))

const PRO: SubscriptionView = {
  id: 'sub-1',
  planId: 'v2-pro-inr',
  planName: 'Pro',
  rateCode: 'v2-pro-inr-month',
  status: 'active',
  currency: 'INR',
  amount: 499_900,
  credits: 500,
  currentPeriodStart: '2026-01-15T10:00:00+00:00',
  currentPeriodEnd: '2026-02-15T10:00:00+00:00',
  cancelAtPeriodEnd: false,
  pendingPlanId: null,
  pendingPlanName: null,
}

function query(state: Partial<{ data: SubscriptionView | null; isPending: boolean; isError: boolean; error: unknown }>) {
  return { data: undefined, isPending: false, isError: false, error: null, refetch: vi.fn(), ...state }
}

function mutation(mutate = vi.fn(), state: Partial<{ isPending: boolean; error: unknown }> = {}) {
  return { mutate, isPending: false, error: null, ...state }
}

function wrap(children: ReactNode) {
  return <MemoryRouter>{children}</MemoryRouter>
}

const text = (id: string) => screen.getByTestId(id).textContent ?? ''

describe('SubscriptionPanel', () => {
  beforeEach(() => {
    queries.cancel.mockReturnValue(mutation())
    queries.resume.mockReturnValue(mutation())
  })

  afterEach(() => {
    cleanup()
    vi.clearAllMocks()
  })

  it('shows loading, then an error with the server message and Retry', () => {
    queries.subscription.mockReturnValue(query({ isPending: true }))
    const { rerender } = render(wrap(<SubscriptionPanel userEmail="a@example.com" />))
    expect(screen.getByText('Loading your plan…')).toBeTruthy()

    const failed = query({ isError: true, error: new ApiError(500, 'Billing is down for maintenance.') })
    queries.subscription.mockReturnValue(failed)
    rerender(wrap(<SubscriptionPanel userEmail="a@example.com" />))
    expect(text('billing-plan-load-error')).toContain('Billing is down for maintenance.')
    screen.getByRole('button', { name: 'Retry' }).click()
    expect(failed.refetch).toHaveBeenCalled()
  })

  it('without a subscription it offers the plans', () => {
    queries.subscription.mockReturnValue(query({ data: null }))
    render(wrap(<SubscriptionPanel userEmail="a@example.com" />))
    expect(screen.getByTestId('billing-plan-none')).toBeTruthy()
    expect(screen.getByTestId('billing-plan-choose').getAttribute('href')).toBe('/subscription')
    expect(screen.queryByTestId('billing-plan-cancel')).toBeNull()
  })

  it('an active plan shows price, renewal, Change plan and a confirmed Cancel', async () => {
    const cancel = vi.fn()
    queries.cancel.mockReturnValue(mutation(cancel))
    queries.subscription.mockReturnValue(query({ data: PRO }))
    render(wrap(<SubscriptionPanel userEmail="a@example.com" />))
    expect(text('billing-plan-name')).toBe('Pro')
    expect(text('billing-plan-status')).toBe('Active')
    expect(text('billing-plan-price')).toBe('₹4,999.00')
    expect(text('billing-plan-renewal')).toContain('Renews on 15 Feb 2026')
    expect(screen.getByTestId('billing-plan-change').getAttribute('href')).toBe('/subscription')
    expect(screen.queryByTestId('billing-plan-resume')).toBeNull()

    await userEvent.click(screen.getByTestId('billing-plan-cancel'))
    expect(cancel).not.toHaveBeenCalled() // asks first
    await userEvent.click(screen.getByTestId('billing-plan-cancel-confirm'))
    expect(cancel).toHaveBeenCalledTimes(1)
  })

  it('a pending cancel shows the end date and Resume', async () => {
    const resume = vi.fn()
    queries.resume.mockReturnValue(mutation(resume))
    queries.subscription.mockReturnValue(query({ data: { ...PRO, cancelAtPeriodEnd: true, currency: 'USD', amount: 6_900 } }))
    render(wrap(<SubscriptionPanel userEmail="a@example.com" />))
    expect(text('billing-plan-status')).toBe('Ends at period end')
    expect(text('billing-plan-price')).toBe('$69.00')
    expect(text('billing-plan-renewal')).toContain('Ends on 15 Feb 2026')
    expect(screen.queryByTestId('billing-plan-cancel')).toBeNull()
    await userEvent.click(screen.getByTestId('billing-plan-resume'))
    expect(resume).toHaveBeenCalledTimes(1)
  })

  it('past due, a pending downgrade, a failed action and a canceled plan', () => {
    queries.subscription.mockReturnValue(
      query({ data: { ...PRO, status: 'past_due', pendingPlanId: 'v2-starter-inr', pendingPlanName: 'Starter' } }),
    )
    queries.cancel.mockReturnValue(mutation(vi.fn(), { error: new ApiError(409, 'Your last renewal payment failed.') }))
    const { rerender } = render(wrap(<SubscriptionPanel userEmail="a@example.com" />))
    expect(text('billing-plan-status')).toBe('Payment due')
    expect(text('billing-plan-renewal')).toContain('renewal payment failed')
    expect(text('billing-plan-pending')).toBe('Changes to Starter on 15 Feb 2026.')
    expect(text('billing-plan-error')).toContain('Your last renewal payment failed.')

    queries.cancel.mockReturnValue(mutation())
    queries.subscription.mockReturnValue(query({ data: { ...PRO, status: 'canceled' } }))
    rerender(wrap(<SubscriptionPanel userEmail="a@example.com" />))
    expect(text('billing-plan-status')).toBe('Canceled')
    expect(text('billing-plan-renewal')).toContain('Ended on 15 Feb 2026')
    expect(screen.getByTestId('billing-plan-choose')).toBeTruthy()
    expect(screen.queryByTestId('billing-plan-cancel')).toBeNull()
    expect(screen.queryByTestId('billing-plan-change')).toBeNull()
  })
})
