import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PaymentHistory } from './PaymentHistory'
import { renderWithApi } from '../testing'

const PAYMENT = { createdAt: '2026-11-20T10:00:00Z', description: 'Credit Pack (50 image credits)', kind: 'pack', amount: 99_900, currency: 'INR' }

describe('PaymentHistory', () => {
  beforeEach(() => {
    renderWithApi(<PaymentHistory userEmail="ada@example.com" />, () => ({
      items: [
        { ...PAYMENT, orderId: 'o2', status: 'expired', invoiceUrl: null },
        { ...PAYMENT, orderId: 'o1', status: 'paid', invoiceUrl: '/api/v1/payment/invoice/o1' },
      ],
      total: 2,
      pageNum: 1,
      pageSize: 10,
    }))
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
