import { describe, expect, it } from 'vitest'
import { lastDays } from '@/lib/usageDays'
import { currencySymbol, formatDay, formatDelta, formatMoney, pageCount, rangeProblem, sumDays, usageCsv } from './money'

describe('billing money and dates', () => {
  it('formats minor units with the currency symbol and 2 decimals', () => {
    expect(formatMoney(149_900, 'INR')).toBe('₹1,499.00')
    expect(formatMoney(99_900, 'inr')).toBe('₹999.00')
    expect(formatMoney(1_900, 'USD')).toBe('$19.00')
    expect(formatMoney(5, 'USD')).toBe('$0.05')
    expect(formatMoney(0, 'INR')).toBe('₹0.00')
    expect(formatMoney(123_456_789, 'USD')).toBe('$1,234,567.89')
    expect(formatMoney(-1_050, 'USD')).toBe('-$10.50')
    expect(formatMoney(1_900, 'EUR')).toBe('$19.00') // anything but INR is shown in $ (spec §9)
    expect(currencySymbol('INR')).toBe('₹')
    expect(currencySymbol('USD')).toBe('$')
  })

  it('shows UTC days and signed deltas', () => {
    expect(formatDay('2026-02-15T23:30:00+00:00')).toBe('15 Feb 2026')
    expect(formatDay(null)).toBe('–')
    expect(formatDay('not a date')).toBe('–')
    expect(formatDelta(50)).toBe('+50')
    expect(formatDelta(-1)).toBe('-1')
    expect(formatDelta(0)).toBe('0')
  })

  it('asks for the last UTC days and sums them', () => {
    expect(lastDays(30, new Date('2026-03-10T23:59:00Z'))).toEqual({ fromDate: '2026-02-09', toDate: '2026-03-10' })
    expect(lastDays(1, new Date('2026-03-10T00:00:00Z'))).toEqual({ fromDate: '2026-03-10', toDate: '2026-03-10' })
    const day = { spent: 2, refunded: 1, grantedFree: 10, grantedPaid: 0 }
    expect(sumDays([day, { ...day, grantedPaid: 50 }])).toEqual({ spent: 4, refunded: 2, grantedFree: 20, grantedPaid: 50 })
    expect(pageCount(0, 10)).toBe(1)
    expect(pageCount(21, 10)).toBe(3)
  })
})

describe('a custom usage range and its CSV', () => {
  const now = new Date('2026-03-10T12:00:00Z')

  it('accepts a range up to a year ending today, and says what is wrong otherwise', () => {
    expect(rangeProblem('2026-03-01', '2026-03-10', now)).toBeNull()
    expect(rangeProblem('2025-03-10', '2026-03-10', now)).toBeNull() // 366 days
    expect(rangeProblem('2025-03-09', '2026-03-10', now)).toBe('Choose at most a year.')
    expect(rangeProblem('2026-03-05', '2026-03-01', now)).toBe('The start date is after the end date.')
    expect(rangeProblem('2026-03-01', '2026-03-11', now)).toBe('The end date is in the future.')
    expect(rangeProblem('', '2026-03-01', now)).toBe('Choose both dates.')
    expect(rangeProblem('2026-02-31x', '2026-03-01', now)).toBe('Choose both dates.')
  })

  it('writes one CSV row per day under a header', () => {
    const csv = usageCsv([
      { date: '2026-03-01', spent: 3, refunded: 1, grantedFree: 10, grantedPaid: 0 },
      { date: '2026-03-02', spent: 0, refunded: 0, grantedFree: 0, grantedPaid: 500 },
    ])
    expect(csv).toBe('date,spent,refunded,free_added,paid_added\r\n2026-03-01,3,1,10,0\r\n2026-03-02,0,0,0,500\r\n')
    expect(usageCsv([])).toBe('date,spent,refunded,free_added,paid_added\r\n')
  })
})
