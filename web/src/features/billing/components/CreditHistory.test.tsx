import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { saveBlob } from '@/lib/download'
import { CreditHistory } from './CreditHistory'
import { renderWithApi } from '../testing'

vi.mock('@/lib/download', () => ({ saveBlob: vi.fn() }))

describe('CreditHistory', () => {
  const asked: Array<Record<string, string>> = []

  beforeEach(() => {
    asked.length = 0
    renderWithApi(<CreditHistory userEmail="ada@example.com" />, (url) => {
      const query = Object.fromEntries(url.searchParams)
      asked.push(query)
      const days = [{ date: query.fromDate!, spent: 2, refunded: 1, grantedFree: 0, grantedPaid: 100 }]
      return {
        fromDate: query.fromDate,
        toDate: query.toDate,
        totalSpent: 1,
        days,
        entries: { items: [], total: 0, pageNum: 1, pageSize: 15 },
      }
    })
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  it('asks for the dates chosen, never for a range the server would refuse, and exports what it shows', async () => {
    await screen.findByTestId('billing-credit-totals')
    await userEvent.selectOptions(screen.getByTestId('billing-credits-range'), 'Custom dates')
    fireEvent.change(screen.getByTestId('billing-credits-from'), { target: { value: '2026-01-05' } })
    fireEvent.change(screen.getByTestId('billing-credits-to'), { target: { value: '2026-02-10' } })
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ fromDate: '2026-01-05', toDate: '2026-02-10', pageNum: '1' }))
    await waitFor(() => expect(screen.getByTestId('billing-total-paid').textContent).toBe('100'))
    // The chart follows the range: every day of it, from the first to the last.
    const chart = screen.getByTestId('billing-credits-chart')
    expect([chart.dataset.days, chart.dataset.first, chart.dataset.last]).toEqual(['37', '2026-01-05', '2026-02-10'])

    const before = asked.length
    fireEvent.change(screen.getByTestId('billing-credits-from'), { target: { value: '2026-03-01' } })
    expect(screen.getByTestId('billing-credits-range-problem').textContent).toBe('The start date is after the end date.')
    expect(asked.length).toBe(before)

    await userEvent.click(screen.getByTestId('billing-credits-csv'))
    const [blob, name] = vi.mocked(saveBlob).mock.calls.at(-1)!
    expect(name).toBe('credit-usage-2026-01-05-to-2026-02-10.csv')
    expect(await blob.text()).toBe('date,spent,refunded,free_added,paid_added\r\n2026-01-05,2,1,0,100\r\n')
  })
})
