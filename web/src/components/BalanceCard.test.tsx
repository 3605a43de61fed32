import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BalanceCard } from './BalanceCard'

const answer = vi.hoisted(() => ({ current: {} as Record<string, unknown> }))
vi.mock('@/hooks/useCredits', () => ({ useCredits: () => answer.current }))

const credits = (over: Record<string, number> = {}) => ({ free: 2.5, paid: 1200, total: 1202.5, held: 0, ...over })

function show(state: Record<string, unknown>, props: Partial<Parameters<typeof BalanceCard>[0]> = {}) {
  answer.current = state
  render(<BalanceCard title="Balance" testId="card" valueTestId="credit" {...props} />)
  return screen.getByTestId('card')
}

describe('BalanceCard', () => {
  let scrolled: ReturnType<typeof vi.fn>

  beforeEach(() => {
    scrolled = vi.fn()
    Element.prototype.scrollIntoView = scrolled as unknown as Element['scrollIntoView']
  })

  afterEach(cleanup)

  it('shows the free, paid and total credits under its heading', () => {
    const card = show({ data: credits(), isError: false })
    expect(screen.getByRole('region', { name: 'Balance' })).toBe(card)
    expect(screen.getByTestId('credit-free').textContent).toBe('2.50')
    expect(screen.getByTestId('credit-paid').textContent).toBe('1200')
    expect(screen.getByTestId('credit-total').textContent).toBe('1202.50')
    expect(screen.queryByTestId('credit-note')).toBeNull()
  })

  it('shows dashes until the balance arrives', () => {
    show({ data: undefined, isError: false })
    expect(screen.getByTestId('credit-total').textContent).toBe('–')
  })

  it('notes reserved credits, a load failure, or that free credits go first', () => {
    show({ data: credits({ held: 2 }), isError: false }, { withNote: true })
    expect(screen.getByTestId('credit-note').textContent).toBe('2 credits reserved for running generations.')
    cleanup()
    show({ data: undefined, isError: true }, { withNote: true })
    expect(screen.getByTestId('credit-note').textContent).toBe('The balance could not be loaded right now.')
    cleanup()
    show({ data: credits(), isError: false }, { withNote: true })
    expect(screen.getByTestId('credit-note').textContent).toBe('Free credits are used first.')
  })

  it('when highlighted, is outlined and scrolled into view', () => {
    const card = show({ data: credits(), isError: false }, { highlighted: true, className: 'settings__card', id: 'credit' })
    expect(card.className).toBe('card balance-card settings__card card--highlight')
    expect(card.id).toBe('credit')
    expect(card.getAttribute('data-highlighted')).toBe('true')
    expect(scrolled).toHaveBeenCalledWith({ block: 'center' })
  })

  it('otherwise it is not', () => {
    const card = show({ data: credits(), isError: false })
    expect(card.className).toBe('card balance-card')
    expect(card.getAttribute('data-highlighted')).toBe('false')
    expect(scrolled).not.toHaveBeenCalled()
  })
})
