import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PaymentHistory } from './PaymentHistory'
import { json } from '@/testing/http'

const PAYMENT = { createdAt: '2026-11-20T10:00:00Z', description: 'Credit Pack (50 image credits)', kind: 'pack', amount: 99_900, currency: 'INR' }

describe('PaymentHistory', () => {
  beforeEach(() => {
    localStorage.clear()
    vi.stubGlobal(
      'fetch',
      vi.fn((input: string) => {
        const url = new URL(input, 'http://app')
        if (url.pathname === '/imageedit/users/guestlogin') return Promise.resolve(json(200, { data: { token: 'g', credits: 0 } }))
        return Promise.resolve(
          json(200, {
            data: {
              items: [
                { ...PAYMENT, orderId: 'o2', status: 'expired', invoiceUrl: null },
                { ...PAYMENT, orderId: 'o1', status: 'paid', invoiceUrl: '/api/v1/payment/invoice/o1' },
              ],
              total: 2,
              pageNum: 1,
              pageSize: 10,
            },
          }),
        )
      }),
    )
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    render(
      <QueryClientProvider client={client}>
        <PaymentHistory userEmail="ada@example.com" />
      </QueryClientProvider>,
    )
  })

  afterEach(() => {
    cleanup()
    vi.unstubAllGlobals()
  })

  it('shows an abandoned checkout as Expired, without an invoice', async () => {
    const rows = await screen.findAllByTestId('billing-payment-row')
    expect(rows).toHaveLength(2)
    expect(within(rows[0]!).getByText('Expired')).toBeTruthy()
    expect(within(rows[0]!).queryByTestId('billing-invoice-o2')).toBeNull()
    expect(within(rows[1]!).getByText('Paid')).toBeTruthy()
  })
})
