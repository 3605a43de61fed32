import { describe, expect, it } from 'vitest'
import { currencySymbol, formatMoney } from './money'

describe('money (spec §9)', () => {
  it('shows ₹ for INR and $ for anything else', () => {
    expect(currencySymbol('INR')).toBe('₹')
    expect(currencySymbol('inr')).toBe('₹')
    expect(currencySymbol('USD')).toBe('$')
    expect(currencySymbol('EUR')).toBe('$')
  })

  it('formats minor units with exactly 2 decimals', () => {
    expect(formatMoney(0, 'INR')).toBe('₹0.00')
    expect(formatMoney(5, 'USD')).toBe('$0.05')
    expect(formatMoney(1_900, 'USD')).toBe('$19.00')
    expect(formatMoney(-1_050, 'USD')).toBe('-$10.50')
  })

  it('groups thousands for $ and the Indian way for ₹', () => {
    expect(formatMoney(123_456_789, 'USD')).toBe('$1,234,567.89')
    expect(formatMoney(149_900, 'INR')).toBe('₹1,499.00')
    expect(formatMoney(14_990_000, 'INR')).toBe('₹1,49,900.00')
    expect(formatMoney(1_234_567_800, 'INR')).toBe('₹1,23,45,678.00')
  })
})
